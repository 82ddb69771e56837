//! The result document: its format and version, tool, invocation, run status, and JSON in and out.
use crate::quantity::{Duration, Frequency, Timestamp};
#[cfg(feature = "read")]
use crate::ModelError;
use crate::{Benchmark, Comparison, Diagnostic, Environment, Settings};
use serde::{Deserialize, Serialize};

/// The value of the `format` field that marks a plumb result.
pub const FORMAT: &str = "plumb-result";
/// Bumped on any change a reader of the previous version would misread.
pub const FORMAT_VERSION: u32 = 4;
/// The oldest version this plumb reads (migrating it on load).
pub const OLDEST_FORMAT_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    pub name: String,
    pub version: String,
}

impl Tool {
    /// This plumb.
    pub fn plumb() -> Tool {
        Tool {
            name: "plumb".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Invocation {
    /// The exact command line plumb was started with.
    pub argv: Vec<String>,
    pub cwd: Option<String>,
}

impl Invocation {
    /// How this process was started: its arguments (lossily decoded, secrets hidden:
    /// `--history postgres://u:***@…`, `--token ***`, `-H 'Authorization: ***'`) and
    /// directory.
    pub fn current() -> Invocation {
        Invocation {
            argv: crate::redact::argv(std::env::args_os().map(|a| a.to_string_lossy().into())),
            cwd: std::env::current_dir()
                .ok()
                .map(|p| p.display().to_string()),
        }
    }
}

/// The clock an in-process harness timed with, as measured at start.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClockInfo {
    /// `monotonic` (the OS clock) or `tsc` (fenced rdtsc/rdtscp).
    pub name: String,
    /// Smallest non-zero difference between two successive reads.
    pub resolution: Duration,
    /// Mean cost of one read.
    pub read_cost: Duration,
    /// For `tsc`: its rate, calibrated against the monotonic clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tsc_frequency: Option<Frequency>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "state")]
pub enum RunStatus {
    Complete,
    /// Stopped by a signal (Ctrl-C, SIGTERM, SIGHUP); the samples are what was measured
    /// until then. `signal` names it ("Ctrl-C", "SIGTERM"), when known.
    Interrupted {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        signal: Option<String>,
    },
    /// Stopped by a failing benchmark; `message` says which and why.
    Failed {
        message: String,
    },
}

/// A commit as a result file records it: its id, and when it was made when the file says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedCommit {
    pub sha: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<Timestamp>,
}

impl RecordedCommit {
    /// `id` as a commit when it is one (hex, 7 to 64 digits): pytest-benchmark writes
    /// "unversioned" outside git.
    pub fn of(id: &str, time: Option<Timestamp>) -> Option<RecordedCommit> {
        let hex = (7..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_hexdigit());
        hex.then(|| RecordedCommit {
            sha: id.to_ascii_lowercase(),
            time,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultDocument {
    pub format: String,
    pub format_version: u32,
    pub tool: Tool,
    /// Start of the run on the wall clock.
    pub started: Timestamp,
    pub invocation: Invocation,
    pub environment: Environment,
    pub settings: Settings,
    pub status: RunStatus,
    pub benchmarks: Vec<Benchmark>,
    #[serde(default)]
    pub comparisons: Vec<Comparison>,
    /// Findings about the run as a whole (e.g. a noisy machine).
    #[serde(default)]
    pub diagnostics: Vec<Diagnostic>,
    /// The clock of an in-process run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockInfo>,
    /// Sampling profiles (`plumb profile`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub profiles: Vec<crate::Profile>,
    /// A program's in-situ regions (plumb-bench's `insitu::dump`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<crate::InSituRegion>,
    /// Two revisions built and measured side by side (`plumb revs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revisions: Option<crate::Revisions>,
    /// Two commands measured in rounds until the verdict settled (`plumb run A B
    /// --until-settled`); `plumb revs` keeps its rounds in `revisions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<crate::SequentialRounds>,
    /// The commit the file says it was measured at (an import's own record: asv's
    /// `commit_hash`, pytest-benchmark's `commit_info`), which `plumb history add` keeps
    /// it at unless told another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<RecordedCommit>,
    /// Set when the document was read from an older format version and migrated: the
    /// version it was written in (not written out; a reader says so to its user).
    #[serde(skip)]
    pub migrated_from: Option<u32>,
}

impl ResultDocument {
    /// Whether the machine was recorded where the result was measured: plumb's own
    /// producers read it; an import holds only what its file says (no virtualisation,
    /// no governors), which must not be read as "none".
    pub fn machine_recorded(&self) -> bool {
        !matches!(
            self.settings.producer,
            crate::ProducerSettings::Imported { .. }
        )
    }

    /// The rounds measured until a sequential verdict settled: `plumb revs`' or `plumb run
    /// --until-settled`'s.
    pub fn sequential(&self) -> Option<&crate::SequentialRounds> {
        (self.revisions.as_ref().map(|r| &r.rounds)).or(self.rounds.as_ref())
    }

    pub fn new(
        tool_version: &str,
        invocation: Invocation,
        environment: Environment,
        settings: Settings,
    ) -> Self {
        ResultDocument {
            format: FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            tool: Tool {
                name: "plumb".to_string(),
                version: tool_version.to_string(),
            },
            started: Timestamp::now(),
            invocation,
            environment,
            settings,
            status: RunStatus::Complete,
            benchmarks: Vec::new(),
            comparisons: Vec::new(),
            diagnostics: Vec::new(),
            clock: None,
            profiles: Vec::new(),
            regions: Vec::new(),
            revisions: None,
            rounds: None,
            commit: None,
            migrated_from: None,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("the model serialises infallibly")
    }

    /// Reads a document, checking that it is a plumb result of this format version before
    /// reading its fields, so a foreign file or an old version gets a message that says so.
    /// A document of an older version is migrated (see `migrate.rs`) and marked with
    /// `migrated_from`.
    #[cfg(feature = "read")]
    pub fn from_json(text: &str) -> Result<Self, ModelError> {
        let (value, version) = read_header(text, FORMAT, OLDEST_FORMAT_VERSION..=FORMAT_VERSION)?;
        let migrated_from = (version != FORMAT_VERSION).then_some(version);
        let value = crate::migrate::to_current(value, version)?;
        let mut doc: ResultDocument =
            serde_json::from_value(value).map_err(ModelError::Malformed)?;
        for b in &mut doc.benchmarks {
            b.check_metrics()
                .map_err(|e| ModelError::Malformed(serde::de::Error::custom(e)))?;
            let former = b.function_mut().and_then(|f| f.former_working_set.take());
            b.working_set = b.working_set.or(former);
        }
        doc.migrated_from = migrated_from;
        Ok(doc)
    }

    pub fn benchmark(&self, name: &str) -> Option<&Benchmark> {
        self.benchmarks.iter().find(|b| b.name == name)
    }
}

/// Parses `text` and checks its `format` marker and `format_version` before any other
/// field, so a foreign file or another version gets a message that says so.
#[cfg(feature = "read")]
pub(crate) fn read_header(
    text: &str,
    format: &str,
    versions: std::ops::RangeInclusive<u32>,
) -> Result<(serde_json::Value, u32), ModelError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(ModelError::NotJson)?;
    let found = value.get("format");
    if found.and_then(|f| f.as_str()) != Some(format) {
        return Err(ModelError::Foreign {
            expected: format.to_string(),
            found: found.map(|f| f.as_str().map_or(f.to_string(), str::to_string)),
        });
    }
    match value.get("format_version").and_then(|v| v.as_u64()) {
        Some(v) if versions.contains(&(v as u32)) && v <= u64::from(u32::MAX) => {
            Ok((value, v as u32))
        }
        Some(v) => Err(ModelError::WrongVersion {
            found: v,
            oldest: *versions.start(),
            newest: *versions.end(),
        }),
        None => Err(ModelError::Malformed(serde::de::Error::custom(
            "missing or non-integer \"format_version\"",
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantity::{Confidence, Fraction};
    use crate::{BenchmarkKind, Metric, MetricInfo};

    fn doc() -> ResultDocument {
        let mut d = ResultDocument::new(
            "0.1.0",
            Invocation {
                argv: vec!["plumb".into(), "run".into(), "true".into()],
                cwd: None,
            },
            Environment::default(),
            Settings {
                confidence: Confidence::DEFAULT,
                sesoi: Fraction::DEFAULT_SESOI,
                question: Default::default(),
                producer: crate::ProducerSettings::None,
            },
        );
        let mut b = Benchmark::new("true", BenchmarkKind::Command);
        b.set_command("true");
        b.baseline = true;
        b.metrics
            .insert(Metric::WallTime, MetricInfo::measured(&Metric::WallTime));
        b.samples.push(1, &[(Metric::WallTime, 1000)]);
        b.samples.push(1, &[(Metric::WallTime, 1100)]);
        d.benchmarks.push(b);
        d
    }

    /// Documents written before sweeps kept an in-process working set in `function`;
    /// reading one puts it where every benchmark's is now, and writing never puts it back.
    #[test]
    fn a_working_set_in_function_info_moves_to_the_benchmark() {
        let mut d = doc();
        d.benchmarks[0].set_function(crate::FunctionInfo::default());
        let mut value = serde_json::to_value(d).unwrap();
        value["benchmarks"][0]["function"]["working_set"] = serde_json::json!(65536);
        let read = ResultDocument::from_json(&value.to_string()).unwrap();
        let b = &read.benchmarks[0];
        assert_eq!(b.working_set, Some(crate::quantity::ByteSize(65536)));
        let written = serde_json::to_value(&read).unwrap();
        assert_eq!(written["benchmarks"][0]["working_set"], 65536);
        assert!(written["benchmarks"][0]["function"]
            .get("working_set")
            .is_none());
    }

    #[test]
    fn round_trips() {
        let d = doc();
        assert_eq!(ResultDocument::from_json(&d.to_json()).unwrap(), d);
    }

    #[test]
    fn statistics_that_could_not_be_computed_round_trip_as_null() {
        let mut d = doc();
        d.comparisons.push(crate::Comparison {
            reason: crate::VerdictReason::CannotCompare {
                problem: "too few samples".into(),
                baseline_n: 1,
                candidate_n: 1,
            },
            ..crate::Comparison::unjudged("a", "b", Confidence::DEFAULT, Fraction::DEFAULT_SESOI)
        });
        let json = d.to_json();
        assert!(json.contains("\"ratio\": null"), "{json}");
        let back = ResultDocument::from_json(&json).unwrap();
        assert!(back.comparisons[0].ratio.is_nan());
    }

    #[test]
    fn floats_round_trip_exactly() {
        // serde_json without `float_roundtrip` can be off by one ULP; statistics written
        // and read back must be bit-identical.
        let mut d = doc();
        let mut x: u64 = 0x9E3779B97F4A7C15;
        for _ in 0..2000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            let value = f64::from_bits(x >> 2) % 1e10;
            d.benchmarks[0].corrections = vec![crate::Correction {
                metric: Metric::WallTime,
                value,
                std_err: 0.0,
                reason: String::new(),
            }];
            let back = ResultDocument::from_json(&d.to_json()).unwrap();
            assert_eq!(
                back.benchmarks[0].corrections[0].value.to_bits(),
                value.to_bits()
            );
        }
    }

    #[test]
    fn foreign_file_is_named_as_such() {
        let e = ResultDocument::from_json(r#"{"results": []}"#).unwrap_err();
        assert!(matches!(e, ModelError::Foreign { found: None, .. }), "{e}");
        assert!(e.to_string().contains("not a plumb result"));
        let e = ResultDocument::from_json(r#"{"format": "hyperfine"}"#).unwrap_err();
        assert!(e.to_string().contains("\"hyperfine\""), "{e}");
    }

    #[test]
    fn other_version_is_refused_by_number() {
        let text = doc().to_json().replace(
            &format!("\"format_version\": {FORMAT_VERSION}"),
            "\"format_version\": 99",
        );
        let e = ResultDocument::from_json(&text).unwrap_err();
        assert!(
            matches!(e, ModelError::WrongVersion { found: 99, .. }),
            "{e}"
        );
    }

    #[test]
    fn an_undeclared_metric_is_refused_by_name() {
        let text = doc().to_json().replace(
            "\"metrics\": {\n        \"wall-time\"",
            "\"metrics\": {\n        \"cycles\"",
        );
        let e = ResultDocument::from_json(&text).unwrap_err().to_string();
        assert!(
            e.contains("\"wall-time\" has values but is not declared"),
            "{e}"
        );
    }

    #[test]
    fn not_json_and_malformed_are_told_apart() {
        assert!(matches!(
            ResultDocument::from_json("{oops").unwrap_err(),
            ModelError::NotJson(_)
        ));
        let e = ResultDocument::from_json(r#"{"format":"plumb-result","format_version":3}"#)
            .unwrap_err();
        assert!(matches!(e, ModelError::Malformed(_)), "{e}");
    }
}
