//! Pure statistics for benchmark samples.
//!
//! Every function here takes plain `f64` slices and returns plain values: no clocks, no
//! files, no printing. Each is tested against reference values computed independently
//! (scipy, statsmodels, pymannkendall or hand-worked examples written into the tests).

mod adaptive_histogram;
mod amdahl;
mod anova;
mod autocorrelation;
mod batch_means;
mod between_runs;
mod change_points;
mod decision;
mod difference_ci;
mod dip;
mod dip_null;
mod dip_test;
mod effect;
mod error;
mod group_sequential;
mod mann_whitney;
mod median_ci;
mod modality;
mod modes;
mod moments;
mod multimodality;
mod outliers;
mod proportions;
mod quantile_ci;
mod quantiles;
mod ratio;
mod sequential;
mod student_t;
mod summary;
mod ties;
mod tost;
mod trend;
mod welch;
mod zipf_mass;

pub use amdahl::{amdahl_range, amdahl_speedup};
pub use anova::{one_way_anova, Anova};
pub use autocorrelation::{lag1_autocorrelation, positively_autocorrelated};
pub use batch_means::{batch_means, batch_means_ci};
pub use between_runs::{
    between_run_noise, last_level_noise, BetweenRunNoise, RunNoise, FEWEST_RUNS,
};
pub use change_points::{
    benjamini_hochberg, change_points, change_points_across, change_points_after, merge_across,
    otava_change_points, otava_divisive, Change, ChangeParams, Level, OtavaChange, OtavaParams,
    Series, SplitState, SplitTest,
};
pub use decision::{decide, Call, Evidence, Look};
pub use difference_ci::difference_ci;
pub use dip::{dip, Dip};
pub use dip_test::{dip_test, DipTest, DIP_P_FLOOR};
pub use effect::{cohens_d, cohens_d_from_moments, hodges_lehmann};
pub use error::StatsError;
pub use group_sequential::{boundaries, boundaries_with, crossing_probability, Spending};
pub use mann_whitney::{mann_whitney_u, MannWhitney};
pub use median_ci::{median_ci, samples_needed, MedianCi};
pub use modality::{mvalue, mvalue_fixed_bins, Modality};
pub use modes::{modes, Mode};
pub use moments::Moments;
pub use multimodality::{multimodality, Multimodality, DIP_ALPHA};
pub use outliers::{tukey_outliers, TukeyOutliers};
pub use proportions::{share_ci, share_difference_ci, share_half_width};
pub use quantile_ci::{quantile_ci, samples_for_quantile, QuantileCi};
pub use quantiles::normal_quantile;
pub use ratio::{ratio_from_moments, ratio_of_means, ratio_sd, RatioEstimate};
pub use sequential::{sequential_look, SequentialDesign, SequentialLook};
pub use student_t::{mean_ci, t_quantile, MeanCi};
pub use summary::{median_of_sorted, percentile_of_sorted, Summary};
pub use tost::{tost_from_moments, tost_welch, Tost};
pub use trend::{mann_kendall, MannKendall};
pub use welch::{welch_from_moments, welch_t_test, WelchTest};
pub use zipf_mass::{harmonic, zipf_hot_items};

/// A closed interval `[lo, hi]`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

impl Interval {
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }
    pub fn half_width(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }
}

pub(crate) fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Sample variance (divisor n - 1). Two-pass for numerical stability.
pub(crate) fn variance(xs: &[f64]) -> f64 {
    let m = mean(xs);
    xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() as f64 - 1.0)
}

pub(crate) fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

pub(crate) fn check_finite(xs: &[f64], need: usize) -> Result<(), StatsError> {
    if xs.len() < need {
        return Err(StatsError::TooFewSamples {
            have: xs.len(),
            need,
        });
    }
    // Values near f64::MAX are finite but overflow sums; no measurement is that large.
    if xs.iter().any(|x| !x.is_finite() || x.abs() > 1e300) {
        return Err(StatsError::NotFinite);
    }
    Ok(())
}

#[cfg(test)]
pub(crate) fn assert_close(actual: f64, expected: f64, rel: f64) {
    let tol = rel * expected.abs().max(1e-300);
    assert!(
        (actual - expected).abs() <= tol,
        "actual {actual} vs expected {expected} (rel tol {rel})"
    );
}
