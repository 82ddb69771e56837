//! Findings only the in-process harness can make: failures, results that differ, work
//! the compiler deleted, allocation in the timed loop, warm-up, working sets, noise
//! between identical variants, samples too short and precision targets missed.
use crate::quantity::{ByteSize, Confidence, Duration, Fraction};
use crate::{Interval, PrecisionStop, Verdict};
use serde::{Deserialize, Serialize};

/// The benchmark failed (it panicked, or its setup did); `reason` as it was reported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Failed {
    pub reason: String,
}

/// A variant of a `same_result` group that did not return its result (`iter_checked`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultUnchecked {}

/// A variant whose result differs from the `reference` variant's `expected` one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WrongResult {
    pub result: String,
    pub expected: String,
    pub reference: String,
}

/// A variant `1/ratio` times faster than `baseline`: check that it still does the work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckTheWork {
    #[serde(with = "crate::nan_as_null")]
    pub ratio: f64,
    pub baseline: String,
}

/// Allocation inside the timed loop, per operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Allocates {
    #[serde(with = "crate::nan_as_null")]
    pub allocations_per_op: f64,
    #[serde(with = "crate::nan_as_null")]
    pub bytes_per_op: f64,
}

/// Warm-up ran for `warmup` without successive windows agreeing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoSteadyState {
    pub warmup: Duration,
}

/// Warm-up was turned off.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoWarmup {}

/// A declared working set larger than the last-level `cache`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkingSet {
    pub working_set: ByteSize,
    pub cache: String,
    pub cache_size: ByteSize,
}

/// Identical variants not measured equivalent to `baseline`: the machine's noise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Noise {
    pub baseline: String,
    pub verdict: Verdict,
    #[serde(with = "crate::nan_as_null")]
    pub ratio: f64,
    pub ratio_ci: Option<Interval>,
    pub sesoi: Fraction,
}

impl Noise {
    /// Measured apart: a verdict, or an interval that excludes 1 around an estimate
    /// beyond the SESOI. Otherwise the interval was too wide to show them equivalent.
    pub fn apart(&self) -> bool {
        use plumb_stats::{decide, Evidence, Look};
        let point = Interval {
            lo: self.ratio,
            hi: self.ratio,
        };
        matches!(self.verdict, Verdict::Faster | Verdict::Slower)
            || (self.ratio_ci.is_some_and(|ci| !ci.contains(1.0))
                && decide(point, self.sesoi.get(), Evidence::Point, Look::Fixed).is_change())
    }
}

/// Samples (median `median`) shorter than the `min_sample` the clock needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShortSamples {
    pub median: Duration,
    pub min_sample: Duration,
}

/// Sampling stopped at a cap (`stop`) after `spent` of samples with the mean known to
/// ±`error` (batch means), short of the ±`target`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Imprecise {
    pub stop: PrecisionStop,
    pub spent: Duration,
    #[serde(with = "crate::nan_as_null")]
    pub error: f64,
    pub target: Fraction,
    pub level: Confidence,
}
