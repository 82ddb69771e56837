//! Diagnostics in the result model: a finding of an enemy check with its severity, and
//! the codes findings are known by.
use crate::finding::{Finding, RecordedFinding};
use serde::de::Error as _;
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $text:literal, )*) => {
        /// What a diagnostic is about. Serialised as the kebab-case string beside each
        /// variant, stable across versions; a code written by a newer plumb reads as
        /// `Unknown` with its text kept, so the document still loads.
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum DiagnosticCode {
            $( $(#[$doc])* $variant, )*
            /// A code this plumb does not know (from a newer release); never produced here.
            Unknown(String),
        }

        impl DiagnosticCode {
            /// Every code this plumb can produce, in declaration order.
            pub const ALL: &'static [DiagnosticCode] = &[$(DiagnosticCode::$variant,)*];

            pub fn as_str(&self) -> &str {
                match self {
                    $( DiagnosticCode::$variant => $text, )*
                    DiagnosticCode::Unknown(s) => s,
                }
            }

            pub fn parse(s: &str) -> DiagnosticCode {
                match s {
                    $( $text => DiagnosticCode::$variant, )*
                    other => DiagnosticCode::Unknown(other.to_string()),
                }
            }
        }
    };
}

codes! {
    // Per benchmark, shared analysis.
    /// Too few samples for the interval to mean much.
    TooFewSamples = "too-few-samples",
    WideCi = "wide-ci",
    HighCv = "high-cv",
    Outliers = "outliers",
    Multimodal = "multimodal",
    Drift = "drift",
    ColdStart = "cold-start",
    /// Warm-up runs slower than measured ones: a cold state the warm-up absorbed.
    ColdWarmup = "cold-warmup",
    FailedRuns = "failed-runs",
    /// Fresh processes (launches) differ more than samples within one.
    Launches = "launches",
    // From counters.
    /// Mispredicted branches are a high share of branches.
    BranchBound = "branch-bound",
    /// Along a sweep, time per operation jumps where the working set passes a cache.
    CacheCliff = "cache-cliff",
    /// A sweep's step where no cache lies between the two working sets.
    SizeStep = "size-step",
    /// Two benchmarks' times differ and their instructions do not: the machine, layout
    /// or memory behaviour changed, not the work.
    TimeNotWork = "time-not-work",
    /// Two benchmarks' instructions differ and their times do not.
    WorkNotTime = "work-not-time",
    /// Cache misses are a high share of accesses (and IPC low, where it is measured).
    MemoryBound = "memory-bound",
    /// Counters covered more than the benchmark, or were live too little of the time.
    CountedTooMuch = "counted-too-much",
    // In-process harness.
    Failed = "failed",
    NothingMeasured = "nothing-measured",
    WrongResult = "wrong-result",
    ResultUnchecked = "result-unchecked",
    CheckTheWork = "check-the-work",
    Allocates = "allocates",
    NoSteadyState = "no-steady-state",
    NoWarmup = "no-warmup",
    WorkingSet = "working-set",
    Noise = "noise",
    ShortSamples = "short-samples",
    Imprecise = "imprecise",
    // The machine.
    CpuGovernor = "cpu-governor",
    Turbo = "turbo",
    BusyMachine = "busy-machine",
    Virtualized = "virtualized",
    ClockSource = "clock-source",
    Smt = "smt",
    NotPinned = "not-pinned",
    Aslr = "aslr",
    // Load tests.
    /// No request of a load test succeeded.
    NothingSucceeded = "nothing-succeeded",
    /// A load test's errors passed the accepted fraction (`--max-error-rate`).
    LoadErrors = "load-errors",
    /// The load generator fell behind its own schedule.
    GeneratorBehind = "generator-behind",
    /// The latency tail is mostly the generator's own lateness, not the server's.
    LatencyFromGenerator = "latency-from-generator",
    /// Before a load test: the rate asked is above what the generator's threads can send.
    RateAboveCapacity = "rate-above-capacity",
    /// Every connection was busy (the in-flight bound): the server did not keep up at
    /// this concurrency, and requests waited for a connection.
    InFlightBoundFull = "in-flight-bound-full",
    /// Requests were sent again after the server closed a kept-alive connection.
    Retried = "retried",
    /// https with `--insecure`: the server's certificate was not checked.
    TlsNotVerified = "tls-not-verified",
    /// Merged load results whose measured windows do not overlap, or could not be checked.
    DisjointWindows = "disjoint-windows",
    /// Merged load results that ran different schedules or targets.
    DifferentSchedules = "different-schedules",
    // Two documents compared.
    DifferentMachine = "different-machine",
    DifferentLoad = "different-load",
    DifferentFrequencyPolicy = "different-frequency-policy",
    BestCaseAgrees = "best-case-agrees",
    /// Two differently named benchmarks compared as the only one of each result.
    PairedByElimination = "paired-by-elimination",
    /// Two separate runs compared: the noise between runs, measured in the history or not.
    SeparateRuns = "separate-runs",
    /// A run's mean outside what the benchmark's recent runs on this machine predict.
    UnlikeRecentRuns = "unlike-recent-runs",
    // The design (declared workload), before or after a run.
    /// The whole working set fits in the last-level cache.
    WorkingSetInCache = "working-set-in-cache",
    /// The working set fits in memory while production's does not.
    WorkingSetInMemory = "working-set-in-memory",
    /// The items taking 90 % of a skewed distribution's accesses fit in cache.
    HotSetInCache = "hot-set-in-cache",
    SequentialKeys = "sequential-keys",
    SingleThread = "single-thread",
    FixedSizeValues = "fixed-size-values",
    NoDurability = "no-durability",
    CleanState = "clean-state",
    /// A write-heavy run writing less than a few times its data.
    TooShortToSteady = "too-short-to-steady",
    /// A closed loop asked for a latency percentile (coordinated omission).
    ClosedLoopPercentile = "closed-loop-percentile",
    TooFewForPercentile = "too-few-for-percentile",
    /// An open loop with less concurrency than Little's law needs for its rate.
    ConcurrencyBelowLittle = "concurrency-below-little",
    GeneratorOnTarget = "generator-on-target",
    OneLaunch = "one-launch",
    /// A declared trait the run contradicts.
    DesignMismatch = "design-mismatch",
    /// The verdict differs by the question asked (median faster, p99 slower).
    QuestionMatters = "question-matters",
    /// What the time is sensitive to: the branch predictor, a cache, scheduler jitter.
    Sensitivity = "sensitivity",
}

impl fmt::Display for DiagnosticCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for DiagnosticCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for DiagnosticCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(DiagnosticCode::parse(&String::deserialize(d)?))
    }
}

/// One finding of an enemy check and how much it matters. In JSON, the finding's fields
/// beside its code and the severity: `{"code": "wide-ci", "severity": "warning",
/// "level": 0.999, "relative_error": 0.06, "error": {"value": 12.0, "unit": "ns"}}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub finding: Finding,
}

impl Diagnostic {
    pub fn new(severity: Severity, finding: impl Into<Finding>) -> Self {
        Diagnostic {
            severity,
            finding: finding.into(),
        }
    }

    /// A finding known only by its words (as older documents recorded it, or a tool
    /// plumb imports from writes it).
    pub fn recorded(code: DiagnosticCode, severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            finding: Finding::Recorded(RecordedFinding {
                code,
                message: message.into(),
                evidence: Default::default(),
                advice: String::new(),
            }),
        }
    }

    pub fn code(&self) -> DiagnosticCode {
        self.finding.code()
    }

    pub fn is(&self, code: &DiagnosticCode) -> bool {
        self.code() == *code
    }
}

impl Serialize for Diagnostic {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut fields = match &self.finding {
            Finding::Recorded(r) => object(serde_json::to_value(r).map_err(S::Error::custom)?),
            Finding::Unknown { code, fields } => {
                let mut m = Map::new();
                m.insert("code".into(), Value::String(code.clone()));
                m.extend(fields.clone());
                m
            }
            known => object(serde_json::to_value(known).map_err(S::Error::custom)?),
        };
        fields.insert(
            "severity".into(),
            serde_json::to_value(self.severity).map_err(S::Error::custom)?,
        );
        fields.serialize(s)
    }
}

fn object(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => unreachable!("a finding serialises as an object"),
    }
}

/// A diagnostic with a `message` is one recorded before findings were typed (its words
/// kept); one whose code this plumb does not know keeps its fields; any other is read
/// as the typed finding of its code, and refused when its fields do not fit.
impl<'de> Deserialize<'de> for Diagnostic {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut fields = Map::<String, Value>::deserialize(d)?;
        let severity = fields
            .remove("severity")
            .ok_or_else(|| D::Error::missing_field("severity"))?;
        let severity = Severity::deserialize(severity).map_err(D::Error::custom)?;
        let code = match fields.get("code") {
            Some(Value::String(c)) => DiagnosticCode::parse(c),
            _ => return Err(D::Error::custom("a diagnostic needs a \"code\" string")),
        };
        let finding = if fields.contains_key("message") {
            Finding::Recorded(
                RecordedFinding::deserialize(Value::Object(fields)).map_err(D::Error::custom)?,
            )
        } else if let DiagnosticCode::Unknown(code) = code {
            fields.remove("code");
            Finding::Unknown { code, fields }
        } else {
            Finding::deserialize(Value::Object(fields))
                .map_err(|e| D::Error::custom(format!("diagnostic {code}: {e}")))?
        };
        Ok(Diagnostic { severity, finding })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_kebab_case_strings_that_read_back() {
        for c in DiagnosticCode::ALL {
            let json = serde_json::to_string(c).unwrap();
            assert_eq!(json, format!("\"{}\"", c.as_str()));
            assert_eq!(&serde_json::from_str::<DiagnosticCode>(&json).unwrap(), c);
            assert!(c
                .as_str()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'-'));
        }
        let mut texts: Vec<&str> = DiagnosticCode::ALL.iter().map(|c| c.as_str()).collect();
        texts.sort();
        texts.dedup();
        assert_eq!(
            texts.len(),
            DiagnosticCode::ALL.len(),
            "two variants share a text"
        );
    }

    #[test]
    fn every_finding_reads_back_and_is_tagged_with_its_code() {
        let all = crate::finding::examples::all();
        for d in &all {
            let json = serde_json::to_value(d).unwrap();
            assert_eq!(json["code"], d.code().as_str(), "{json}");
            assert_eq!(json["severity"], serde_json::to_value(d.severity).unwrap());
            let back: Diagnostic = serde_json::from_value(json.clone()).unwrap();
            assert_eq!(&back, d, "{json}");
        }
        let mut have: Vec<DiagnosticCode> = all.iter().map(Diagnostic::code).collect();
        have.sort();
        have.dedup();
        let mut every = DiagnosticCode::ALL.to_vec();
        every.sort();
        assert_eq!(have, every, "an example of every code");
    }

    /// A figure that could not be computed (an F of infinity, a ratio to zero) is written
    /// as null and read back as NaN: the document stays readable.
    #[test]
    fn a_figure_that_could_not_be_computed_reads_back() {
        use crate::finding::Launches;
        use crate::{Amount, Unit};
        let ns = |v| Amount::new(v, Unit::Nanoseconds);
        let d = Diagnostic::new(
            Severity::Warning,
            Launches {
                launches: 3,
                level: crate::quantity::Confidence::DEFAULT,
                f: f64::INFINITY,
                p: 0.0,
                mean: ns(f64::NAN),
                between_sd: ns(1.0),
                within_sd: ns(0.0),
            },
        );
        let json = serde_json::to_string(&d).unwrap();
        assert!(json.contains("\"f\":null"), "{json}");
        let back: Diagnostic = serde_json::from_str(&json).unwrap();
        let Finding::Launches(l) = back.finding else {
            panic!("{back:?}")
        };
        assert!(l.f.is_nan() && l.mean.value.is_nan());
    }

    #[test]
    fn a_diagnostic_recorded_with_words_keeps_them() {
        let old = r#"{"code":"high-cv","severity":"warning","message":"noisy: the standard deviation is 12.0% of the mean","evidence":{"cv":0.12,"std_dev_ns":120.0},"advice":"pin"}"#;
        let d: Diagnostic = serde_json::from_str(old).unwrap();
        assert_eq!(d.code(), DiagnosticCode::HighCv);
        let Finding::Recorded(r) = &d.finding else {
            panic!("{d:?}")
        };
        assert_eq!(
            r.message,
            "noisy: the standard deviation is 12.0% of the mean"
        );
        assert_eq!(r.evidence["std_dev_ns"], 120.0);
        assert_eq!(r.advice, "pin");
        let again: Value = serde_json::to_value(&d).unwrap();
        assert_eq!(again, serde_json::from_str::<Value>(old).unwrap());
    }

    #[test]
    fn a_known_code_whose_fields_do_not_fit_is_refused_by_name() {
        let bad = r#"{"code":"high-cv","severity":"warning","cv":"high"}"#;
        let e = serde_json::from_str::<Diagnostic>(bad).unwrap_err();
        assert!(e.to_string().starts_with("diagnostic high-cv: "), "{e}");
    }

    #[test]
    fn a_finding_from_a_newer_plumb_is_kept_with_its_fields() {
        let new = r#"{"code":"thermal-throttling","severity":"warning","celsius":97}"#;
        let d: Diagnostic = serde_json::from_str(new).unwrap();
        assert_eq!(
            d.code(),
            DiagnosticCode::Unknown("thermal-throttling".into())
        );
        assert_eq!(
            serde_json::to_value(&d).unwrap(),
            serde_json::from_str::<Value>(new).unwrap()
        );
    }

    #[test]
    fn a_code_from_a_newer_plumb_is_kept() {
        let c: DiagnosticCode = serde_json::from_str("\"thermal-throttling\"").unwrap();
        assert_eq!(c, DiagnosticCode::Unknown("thermal-throttling".into()));
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"thermal-throttling\"");
    }
}
