//! Findings about one benchmark's samples: how many, how precise, their shape (outliers,
//! modes, drift, a cold start) and whether fresh processes agree.
use crate::quantity::Confidence;
use crate::Amount;
use serde::{Deserialize, Serialize};

/// Fewer samples than an interval needs (`wanted`); below two, no spread at all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TooFewSamples {
    pub n: usize,
    pub wanted: usize,
    pub level: Confidence,
    /// The interval's half-width over σ/√n at this n and level (with n ≥ 2)…
    pub t_multiplier: Option<f64>,
    /// …and with many samples.
    pub t_multiplier_many: Option<f64>,
}

/// The interval's half-width (`error`) is `relative_error` of the mean.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WideCi {
    pub level: Confidence,
    #[serde(with = "crate::nan_as_null")]
    pub relative_error: f64,
    pub error: Amount,
}

/// The standard deviation is `cv` of the mean.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HighCv {
    #[serde(with = "crate::nan_as_null")]
    pub cv: f64,
    pub std_dev: Amount,
    pub mad: Amount,
}

/// Samples beyond Tukey's fences (1.5 × IQR; `far`: beyond 3 × IQR).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outliers {
    pub low: usize,
    pub high: usize,
    pub far: usize,
    /// The samples they are among.
    pub samples: usize,
    pub lower_fence: Amount,
    pub upper_fence: Amount,
    /// The run indices of the first ten, in run order.
    pub run_indices: Vec<usize>,
    /// Upper outliers dropped from the statistics (`--drop-outliers`); `None`: all kept.
    pub dropped: Option<usize>,
}

impl Outliers {
    pub fn count(&self) -> usize {
        self.low + self.high
    }
}

/// Several modes: the dip test's and the mValue's figures, and the modes found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Multimodal {
    #[serde(with = "crate::nan_as_null")]
    pub dip: f64,
    #[serde(with = "crate::nan_as_null")]
    pub dip_p: f64,
    #[serde(with = "crate::nan_as_null")]
    pub mvalue: f64,
    /// How many values the mValue was computed from.
    pub mvalue_values: usize,
    /// Lowest first; fewer than two when the dip test rejects one mode yet the modes
    /// overlap too much to be told apart.
    pub modes: Vec<ModeShare>,
}

/// A mode: where it lies and the share of values near it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModeShare {
    pub location: Amount,
    #[serde(with = "crate::nan_as_null")]
    pub share: f64,
}

/// Values that trend with run order (Mann–Kendall); `half_change`: the second half's
/// mean against the first's, minus 1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Drift {
    #[serde(with = "crate::nan_as_null")]
    pub tau: f64,
    #[serde(with = "crate::nan_as_null")]
    pub p: f64,
    #[serde(with = "crate::nan_as_null")]
    pub half_change: f64,
}

/// The first measured run far slower than the rest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColdStart {
    pub first: Amount,
    pub median: Amount,
    /// The warm-up runs before it; `None`: warm-up was off.
    pub warmup_runs: Option<usize>,
}

/// The warm-up runs were slower than the measured ones: the warm-up absorbed a cold state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColdWarmup {
    pub warmup_median: Amount,
    /// The measured runs' upper Tukey fence.
    pub upper_fence: Amount,
    pub warmup_runs: usize,
}

/// Runs that exited non-zero and were measured anyway (`--ignore-failure`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailedRuns {
    pub failed: usize,
    pub runs: usize,
}

/// Fresh processes of one benchmark against the samples within each (one-way ANOVA).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Launches {
    pub launches: usize,
    pub level: Confidence,
    #[serde(with = "crate::nan_as_null")]
    pub f: f64,
    #[serde(with = "crate::nan_as_null")]
    pub p: f64,
    /// The mean of the launches' means.
    pub mean: Amount,
    pub between_sd: Amount,
    pub within_sd: Amount,
}

impl Launches {
    /// Whether the launches differ at the finding's confidence level.
    pub fn differ(&self) -> bool {
        self.p < self.level.alpha()
    }
}
