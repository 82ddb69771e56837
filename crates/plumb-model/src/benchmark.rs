use crate::Diagnostic;
use plumb_stats::{Interval, Summary};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BenchmarkKind {
    /// A whole process, timed from spawn to exit.
    Command,
    /// A function timed in-process.
    Function,
}

/// One timed measurement, kept raw and in run order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// Wall-clock time of the whole sample, in nanoseconds, as measured (before any
    /// correction the benchmark records).
    pub wall_ns: u64,
    /// Operations timed together in this sample; per-operation time is wall_ns / iterations.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub iterations: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sys_ns: Option<u64>,
    /// Peak resident set size of the child, KiB (`ru_maxrss`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rss_kib: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Set when the process was killed by a signal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
}

fn one() -> u64 {
    1
}
fn is_one(n: &u64) -> bool {
    *n == 1
}

impl Sample {
    pub fn wall(wall_ns: u64) -> Self {
        Sample {
            wall_ns,
            iterations: 1,
            user_ns: None,
            sys_ns: None,
            max_rss_kib: None,
            exit_code: None,
            signal: None,
        }
    }
}

/// A fixed cost subtracted from every sample before statistics, with its reason, e.g. the
/// start-up time of the shell a command was run through.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Correction {
    pub ns: f64,
    /// Standard error of the correction; it adds to the uncertainty of the result.
    pub std_err_ns: f64,
    pub reason: String,
}

/// Statistics of the per-operation time, in nanoseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimeStats {
    pub summary: Summary,
    /// Student-t interval of the mean at the run's confidence level.
    pub mean_ci: Option<Interval>,
    /// Half-width of `mean_ci` (BenchmarkDotNet's "Error").
    pub error: Option<f64>,
    /// Percentile-bootstrap interval of the median.
    pub median_ci: Option<Interval>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Benchmark {
    /// Unique within a document; how `compare` pairs benchmarks of two documents.
    pub name: String,
    pub kind: BenchmarkKind,
    /// The command line as given (commands only), after parameter substitution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, String>,
    #[serde(default)]
    pub baseline: bool,
    #[serde(default)]
    pub warmup: Vec<Sample>,
    pub samples: Vec<Sample>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correction: Option<Correction>,
    /// Indices of samples left out of the statistics (only on request, e.g. dropped
    /// upper outliers); the samples themselves stay in `samples`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded: Vec<usize>,
    /// Statistics of the corrected per-operation times; absent with fewer than one sample.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<TimeStats>,
    #[serde(default)]
    pub diagnostics: Vec<Diagnostic>,
}

impl Benchmark {
    /// Per-operation times in nanoseconds, in run order, with the correction applied.
    pub fn times_ns(&self) -> Vec<f64> {
        let c = self.correction.as_ref().map_or(0.0, |c| c.ns);
        self.samples
            .iter()
            .map(|s| (s.wall_ns as f64 - c) / s.iterations as f64)
            .collect()
    }

    /// Per-operation times that enter the statistics: `times_ns` without `excluded`.
    pub fn analysed_times_ns(&self) -> Vec<f64> {
        self.times_ns()
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !self.excluded.contains(i))
            .map(|(_, t)| t)
            .collect()
    }
}
