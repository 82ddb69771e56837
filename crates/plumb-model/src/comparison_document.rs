//! `plumb compare`'s result: two documents compared benchmark by benchmark. A document of
//! its own, with its own format marker and version, so a tool reading it knows what it is.

#[cfg(feature = "read")]
use crate::document::read_header;
use crate::quantity::{Confidence, Duration, Fraction, Timestamp};
#[cfg(feature = "read")]
use crate::ModelError;
use crate::{Comparison, Diagnostic, Tool, Verdict};
use plumb_stats::Interval;
use serde::{Deserialize, Serialize};

/// The value of the `format` field that marks a comparison.
pub const COMPARISON_FORMAT: &str = "plumb-comparison";
/// Bumped on any change a reader of the previous version would misread.
pub const COMPARISON_FORMAT_VERSION: u32 = 4;

/// One of the two compared results: where it came from and when it was measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparedResult {
    /// The file it was read from, as given.
    pub path: String,
    pub started: Timestamp,
    pub tool_version: String,
}

/// One percentile of two load results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PercentileComparison {
    /// `p50`, `p99`, …
    pub percentile: String,
    pub base: Duration,
    pub new: Duration,
    /// new / base. With runs on either side, `base`, `new` and the ratio are
    /// geometric means of the runs' own percentiles.
    pub ratio: f64,
    /// With two or more runs on one side: the ratio's interval from the spread of the
    /// runs' percentiles (the verdict's). With one run per side: the interval within
    /// those runs, as if requests were independent: shown, not judged by. Absent when
    /// fewer than ten requests lie beyond the percentile in a run.
    pub ratio_ci: Option<Interval>,
    pub verdict: Verdict,
    /// The runs of each side (`plumb load --repeat`).
    pub base_runs: usize,
    pub new_runs: usize,
}

/// A load benchmark of both results: compared percentile by percentile, or why not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum LoadComparison {
    Compared {
        benchmark: String,
        percentiles: Vec<PercentileComparison>,
    },
    NotCompared {
        benchmark: String,
        why: String,
    },
}

impl LoadComparison {
    /// Whether any percentile was judged slower.
    pub fn any_slower(&self) -> bool {
        match self {
            LoadComparison::Compared { percentiles, .. } => {
                percentiles.iter().any(|p| p.verdict == Verdict::Slower)
            }
            LoadComparison::NotCompared { .. } => false,
        }
    }

    pub fn benchmark(&self) -> &str {
        match self {
            LoadComparison::Compared { benchmark, .. }
            | LoadComparison::NotCompared { benchmark, .. } => benchmark,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparisonDocument {
    pub format: String,
    pub format_version: u32,
    pub tool: Tool,
    pub base: ComparedResult,
    pub new: ComparedResult,
    pub confidence: Confidence,
    pub sesoi: Fraction,
    /// Benchmarks of both, paired by name (each new one against its base namesake).
    pub comparisons: Vec<Comparison>,
    #[serde(default)]
    pub load: Vec<LoadComparison>,
    #[serde(default)]
    pub only_in_base: Vec<String>,
    #[serde(default)]
    pub only_in_new: Vec<String>,
    /// How the two machines or their conditions differed: a difference between two
    /// separate runs may be the machine's, not the code's.
    #[serde(default)]
    pub notes: Vec<Diagnostic>,
}

impl ComparisonDocument {
    pub fn new(
        base: ComparedResult,
        new: ComparedResult,
        confidence: Confidence,
        sesoi: Fraction,
    ) -> Self {
        ComparisonDocument {
            format: COMPARISON_FORMAT.to_string(),
            format_version: COMPARISON_FORMAT_VERSION,
            tool: Tool::plumb(),
            base,
            new,
            confidence,
            sesoi,
            comparisons: Vec::new(),
            load: Vec::new(),
            only_in_base: Vec::new(),
            only_in_new: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Something got slower by more than the SESOI (what `plumb compare` exits 1 on).
    pub fn any_slower(&self) -> bool {
        self.comparisons
            .iter()
            .any(|c| c.verdict == Verdict::Slower)
            || self.load.iter().any(LoadComparison::any_slower)
    }

    /// Why no pair could be compared (every pair was a load test that could not be), or
    /// `None` when something was.
    pub fn nothing_compared(&self) -> Option<String> {
        if !self.comparisons.is_empty() {
            return None;
        }
        let why: Vec<&str> = self
            .load
            .iter()
            .map(|l| match l {
                LoadComparison::NotCompared { why, .. } => Some(why.as_str()),
                LoadComparison::Compared { .. } => None,
            })
            .collect::<Option<Vec<_>>>()?;
        (!why.is_empty()).then(|| why.join("; "))
    }

    /// Nothing was paired.
    pub fn is_empty(&self) -> bool {
        self.comparisons.is_empty() && self.load.is_empty()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("the model serialises infallibly")
    }

    /// The comparison `text` is, when it says it is one (`None`: anything else, to be
    /// read as a result). The text is parsed once, by `from_json`, whose header check
    /// tells a foreign file from a comparison.
    #[cfg(feature = "read")]
    pub fn if_comparison(text: &str) -> Option<Result<Self, ModelError>> {
        match Self::from_json(text) {
            Err(ModelError::Foreign { .. } | ModelError::NotJson(_)) => None,
            read => Some(read),
        }
    }

    #[cfg(feature = "read")]
    pub fn from_json(text: &str) -> Result<Self, ModelError> {
        let (value, version) = read_header(text, COMPARISON_FORMAT, 2..=COMPARISON_FORMAT_VERSION)?;
        let value = crate::migrate::comparison_to_current(value, version)?;
        serde_json::from_value(value).map_err(ModelError::Malformed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(path: &str) -> ComparedResult {
        ComparedResult {
            path: path.into(),
            started: Timestamp::from_unix_secs_f64(1.5),
            tool_version: "0.1.0".into(),
        }
    }

    #[test]
    fn round_trips_with_its_own_marker() {
        let mut d = ComparisonDocument::new(
            side("a.json"),
            side("b.json"),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        d.load.push(LoadComparison::NotCompared {
            benchmark: "GET /".into(),
            why: "open vs closed".into(),
        });
        let json = d.to_json();
        assert!(json.contains("\"format\": \"plumb-comparison\""), "{json}");
        assert!(
            json.contains(&format!("\"format_version\": {COMPARISON_FORMAT_VERSION}")),
            "{json}"
        );
        assert!(json.contains("\"outcome\": \"not-compared\""), "{json}");
        assert_eq!(ComparisonDocument::from_json(&json).unwrap(), d);
        // A result document is not a comparison, and says so.
        let e = ComparisonDocument::from_json(r#"{"format":"plumb-result"}"#).unwrap_err();
        assert!(e.to_string().starts_with("not a plumb comparison"), "{e}");
    }

    /// Version 2 kept each side's start in Unix seconds and load percentiles in µs.
    #[test]
    fn version_2_reads_with_its_figures_in_their_new_units() {
        let v2 = r#"{"format":"plumb-comparison","format_version":2,
            "tool":{"name":"plumb","version":"0.1.0"},
            "base":{"path":"a.json","started_unix_s":1795461909.5,"tool_version":"0.1.0"},
            "new":{"path":"b.json","started_unix_s":1795461919.25,"tool_version":"0.1.0"},
            "confidence":0.999,"sesoi":0.02,"comparisons":[],
            "load":[{"outcome":"compared","benchmark":"GET /","percentiles":[
                {"percentile":"p50","base_us":120.5,"new_us":130.0,"ratio":1.0788,
                 "ratio_ci":null,"verdict":"inconclusive","base_runs":1,"new_runs":1}]}]}"#;
        let d = ComparisonDocument::from_json(v2).unwrap();
        assert_eq!(d.base.started.to_string(), "2026-11-23T19:25:09.500000000Z");
        let LoadComparison::Compared { percentiles, .. } = &d.load[0] else {
            panic!("{:?}", d.load[0]);
        };
        assert_eq!(percentiles[0].base, Duration::from_nanos(120_500));
        assert_eq!(percentiles[0].new, Duration::from_micros(130));
    }
}
