//! Diagnostics in the result model: the finding of an enemy check, its code, severity and evidence.
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
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
    FailedRuns = "failed-runs",
    /// Fresh processes (launches) differ more than samples within one.
    Launches = "launches",
    // From counters.
    /// Mispredicted branches are a high share of branches.
    BranchBound = "branch-bound",
    /// Along a sweep, time per operation jumps where the working set passes a cache.
    CacheCliff = "cache-cliff",
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
    /// Every connection was busy (the in-flight bound): the server did not keep up at
    /// this concurrency, and requests waited for a connection.
    InFlightBoundFull = "in-flight-bound-full",
    /// Requests were sent again after the server closed a kept-alive connection.
    Retried = "retried",
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

/// One finding of an enemy check: what was seen, the numbers that show it, and what to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub code: DiagnosticCode,
    pub severity: Severity,
    pub message: String,
    /// The figures behind the finding, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub evidence: BTreeMap<String, serde_json::Value>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub advice: String,
}

impl Diagnostic {
    pub fn new(code: DiagnosticCode, severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            evidence: BTreeMap::new(),
            advice: String::new(),
        }
    }

    pub fn evidence(mut self, name: &str, value: impl Into<serde_json::Value>) -> Self {
        self.evidence.insert(name.to_string(), value.into());
        self
    }

    pub fn advice(mut self, advice: impl Into<String>) -> Self {
        self.advice = advice.into();
        self
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
    fn a_code_from_a_newer_plumb_is_kept() {
        let c: DiagnosticCode = serde_json::from_str("\"thermal-throttling\"").unwrap();
        assert_eq!(c, DiagnosticCode::Unknown("thermal-throttling".into()));
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"thermal-throttling\"");
    }
}
