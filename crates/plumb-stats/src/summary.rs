//! Descriptive statistics of one sample: mean, median, spread, percentiles; checked against numpy.
use crate::{check_finite, mean, sorted, variance, StatsError};
use serde::{Deserialize, Serialize};

/// Descriptive statistics of one sample, in the unit of the input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub n: usize,
    pub mean: f64,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    /// Sample standard deviation (divisor n - 1); 0 when n = 1.
    pub std_dev: f64,
    /// Median absolute deviation scaled by 1.4826 so that it estimates σ for normal data
    /// (R's `mad()` default), which makes it comparable with `std_dev`.
    pub mad: f64,
    pub p05: f64,
    pub q1: f64,
    pub q3: f64,
    pub p95: f64,
    pub p99: f64,
}

/// Percentile `p` in [0, 100] of sorted data by linear interpolation between order
/// statistics (Hyndman & Fan type 7, numpy's and R's default).
pub fn percentile_of_sorted(sorted: &[f64], p: f64) -> f64 {
    assert!(!sorted.is_empty(), "percentile of an empty sample");
    let h = (sorted.len() - 1) as f64 * (p / 100.0).clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    // (1 - f)·a + f·b cannot overflow for finite a, b of opposite signs; a + f·(b - a) can.
    let f = h - lo as f64;
    let (a, b) = (sorted[lo], sorted[hi]);
    // Kept between its order statistics: with a = b the sum can round an ulp outside
    // them, and an interval ending at a would then miss its own estimate (a property
    // test found it).
    let v = (1.0 - f) * a + f * b;
    if a <= b {
        v.clamp(a, b)
    } else {
        v // unsorted or NaN input: no bound to keep it in
    }
}

pub fn median_of_sorted(sorted: &[f64]) -> f64 {
    percentile_of_sorted(sorted, 50.0)
}

/// The median absolute deviation of sorted data, scaled by 1.4826 (R's `mad()` default).
pub(crate) fn mad_of_sorted(sorted: &[f64]) -> f64 {
    let median = median_of_sorted(sorted);
    let deviations = crate::sorted(
        &sorted
            .iter()
            .map(|x| (x - median).abs())
            .collect::<Vec<_>>(),
    );
    1.4826 * median_of_sorted(&deviations)
}

impl Summary {
    pub fn of(xs: &[f64]) -> Result<Summary, StatsError> {
        check_finite(xs, 1)?;
        let s = sorted(xs);
        let median = median_of_sorted(&s);
        Ok(Summary {
            n: s.len(),
            mean: mean(&s),
            median,
            min: s[0],
            max: s[s.len() - 1],
            std_dev: if s.len() > 1 {
                variance(xs).sqrt()
            } else {
                0.0
            },
            mad: mad_of_sorted(&s),
            p05: percentile_of_sorted(&s, 5.0),
            q1: percentile_of_sorted(&s, 25.0),
            q3: percentile_of_sorted(&s, 75.0),
            p95: percentile_of_sorted(&s, 95.0),
            p99: percentile_of_sorted(&s, 99.0),
        })
    }

    /// Coefficient of variation, std_dev / mean.
    pub fn cv(&self) -> f64 {
        self.std_dev / self.mean
    }
}

#[cfg(test)]
mod tests {

    /// Between two equal order statistics the interpolation is that value, not an ulp
    /// beside it (found by the property that a quantile's interval holds its estimate).
    #[test]
    fn a_percentile_between_equal_values_is_that_value() {
        let a = 452024.8838405528;
        let sorted = [1.0, a, a, 2e6];
        for k in 1..1000 {
            let p = 100.0 * (1.0 + k as f64 / 1000.0) / 3.0;
            assert_eq!(percentile_of_sorted(&sorted, p), a, "p {p}");
        }
    }

    use super::*;
    use crate::assert_close;

    // Reference: numpy 2.4 / scipy 1.17
    //   x = [12.1, 11.8, 12.5, 13.0, 11.9, 12.2, 30.0, 12.0, 12.3, 11.7]
    //   np.mean -> 13.95, np.median -> 12.15, np.std(ddof=1) -> 5.651990799709426
    //   scipy.stats.median_abs_deviation(x, scale='normal') uses 1/Φ⁻¹(3/4)=1.482602...;
    //   with R's 1.4826: median(|x-12.15|) = 0.3 -> 0.44478
    //   np.percentile(x, [5, 25, 75, 95, 99]) -> 11.745, 11.925, 12.45, 22.35, 28.47
    const X: [f64; 10] = [12.1, 11.8, 12.5, 13.0, 11.9, 12.2, 30.0, 12.0, 12.3, 11.7];

    #[test]
    fn matches_numpy() {
        let s = Summary::of(&X).unwrap();
        assert_eq!(s.n, 10);
        assert_close(s.mean, 13.95, 1e-12);
        assert_close(s.median, 12.15, 1e-12);
        assert_close(s.std_dev, 5.651990799709426, 1e-9);
        assert_close(s.mad, 0.44478, 1e-9);
        assert_eq!((s.min, s.max), (11.7, 30.0));
        assert_close(s.p05, 11.745, 1e-9);
        assert_close(s.q1, 11.925, 1e-9);
        assert_close(s.q3, 12.45, 1e-9);
        assert_close(s.p95, 22.35, 1e-9);
        assert_close(s.p99, 28.47, 1e-9);
    }

    #[test]
    fn single_sample_has_zero_spread() {
        let s = Summary::of(&[5.0]).unwrap();
        assert_eq!((s.mean, s.median, s.std_dev, s.mad), (5.0, 5.0, 0.0, 0.0));
    }

    #[test]
    fn rejects_empty_and_nan() {
        assert!(matches!(
            Summary::of(&[]),
            Err(StatsError::TooFewSamples { have: 0, need: 1 })
        ));
        assert_eq!(Summary::of(&[1.0, f64::NAN]), Err(StatsError::NotFinite));
    }
}
