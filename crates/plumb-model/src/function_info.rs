//! What the in-process harness knows about a function benchmark beyond its samples.

use crate::quantity::{ByteSize, Duration, Fraction};
use serde::{Deserialize, Serialize};

/// Why sampling for a precision target stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PrecisionStop {
    /// The mean's interval met the target.
    TargetMet,
    /// The most time for samples ran out first.
    TimeCap,
    /// The most samples the buffer holds came first.
    SampleCap,
    /// A stop signal (Ctrl-C) came first: the samples are those taken until then.
    Interrupted,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionInfo {
    /// Operations per invocation of the routine (already in the samples' `iterations`,
    /// which count operations).
    pub ops_per_iter: u64,
    /// Whether warm-up ran (it can be turned off to see cold behaviour), whether it
    /// reached a steady state before its cap, and how long it took.
    pub warmup: bool,
    pub steady_state: bool,
    pub warmup_time: Duration,
    /// Wall time per call (one iteration of the timed loop, `ops_per_iter` operations)
    /// of an empty body at the same batch size: the loop and clock overhead. Per call,
    /// not per operation, because a picosecond is too coarse for the latter when a call
    /// does many operations. Subtracted from the samples only when `overhead_subtracted`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty_body: Option<Duration>,
    /// The empty-body samples behind `empty_body`, per call, for the dead-code check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub empty_body_samples: Vec<Duration>,
    #[serde(default)]
    pub overhead_subtracted: bool,
    /// The precision sampling went on for: a relative half-width of the mean's interval
    /// (by batch means, at the run's confidence). Absent when sampling ran for a fixed time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_error: Option<Fraction>,
    /// The relative half-width of that interval when sampling stopped: at most
    /// `target_error` unless a cap came first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_means_error: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision_stop: Option<PrecisionStop>,
    /// Where documents of plumb before sweeps kept the working set; reading a document
    /// moves it to `Benchmark::working_set`, and it is never written.
    #[serde(default, rename = "working_set", skip_serializing)]
    pub former_working_set: Option<ByteSize>,
    /// The benchmark panicked or failed its result check; its samples may be partial.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// The `Debug` form of one result of the routine, when it was checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// With `--launches N`: how many of the samples (in order) each fresh process took.
    /// Samples of one launch share its code layout and address-space randomisation, so
    /// the launch, not the sample, is the unit of replication.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub launch_sample_counts: Vec<usize>,
}

impl Default for FunctionInfo {
    fn default() -> Self {
        FunctionInfo {
            ops_per_iter: 1,
            warmup: true,
            steady_state: false,
            warmup_time: Duration::ZERO,
            empty_body: None,
            empty_body_samples: Vec::new(),
            overhead_subtracted: false,
            target_error: None,
            batch_means_error: None,
            precision_stop: None,
            former_working_set: None,
            failure: None,
            result: None,
            launch_sample_counts: Vec::new(),
        }
    }
}
