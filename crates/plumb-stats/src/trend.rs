//! The Mann–Kendall test for a monotonic trend across run order, checked against pymannkendall.
use crate::{check_finite, StatsError};
use statrs::distribution::{ContinuousCDF, Normal};

/// Mann–Kendall test for a monotonic trend across the run order.
///
/// Benchmarks use it to detect a run that was not in steady state: cold first runs,
/// thermal throttling, a background job that started half-way. O(n²) pairs, which is
/// fine for the few thousand samples a run produces.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MannKendall {
    /// S = Σ sign(x_j - x_i) over i < j; positive means values rise with run order.
    pub s: f64,
    /// Var(S), with the correction for tied groups.
    pub s_variance: f64,
    /// Normal score with continuity correction.
    pub z: f64,
    /// Two-sided p-value.
    pub p: f64,
    /// Kendall's tau-a, S / (n(n-1)/2): the strength of the trend in [-1, 1].
    pub tau: f64,
}

/// Above this many points the test runs on means of consecutive blocks, keeping O(n²)
/// bounded (a trend over the run survives block averaging; noise shrinks).
pub const MANN_KENDALL_MAX_POINTS: usize = 4000;

pub fn mann_kendall(xs: &[f64]) -> Result<MannKendall, StatsError> {
    check_finite(xs, 3)?;
    if xs.len() > MANN_KENDALL_MAX_POINTS {
        let block = xs.len().div_ceil(MANN_KENDALL_MAX_POINTS);
        let means: Vec<f64> = xs
            .chunks(block)
            .map(|c| c.iter().sum::<f64>() / c.len() as f64)
            .collect();
        return mann_kendall(&means);
    }
    let n = xs.len();
    let mut s = 0.0;
    for i in 0..n {
        for j in i + 1..n {
            s += (xs[j] - xs[i]).signum() * f64::from(xs[j] != xs[i]);
        }
    }
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && sorted[j + 1] == sorted[i] {
            j += 1;
        }
        let t = (j - i + 1) as f64;
        tie_term += t * (t - 1.0) * (2.0 * t + 5.0);
        i = j + 1;
    }
    let nf = n as f64;
    let s_variance = (nf * (nf - 1.0) * (2.0 * nf + 5.0) - tie_term) / 18.0;
    let z = if s_variance <= 0.0 || s == 0.0 {
        0.0
    } else {
        (s - s.signum()) / s_variance.sqrt()
    };
    let normal = Normal::new(0.0, 1.0).expect("standard normal");
    Ok(MannKendall {
        s,
        s_variance,
        z,
        p: (2.0 * normal.cdf(-z.abs())).min(1.0),
        tau: s / (nf * (nf - 1.0) / 2.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_close;

    // Reference: pymannkendall 1.4.3 original_test
    //   y = [5.1,4.9,5.3,5.6,5.2,5.8,6.0,5.7,6.2,6.1,6.4,6.3]
    //     -> s 52, s_variance 212.666..., z 3.4971999547510824, p 0.0004701692793138701, tau 0.7878...
    //   z = [3,1,4,1,5,9,2,6,5,3,5] (ties)
    //     -> s 16, s_variance 159.333..., z 1.188332399294654, p 0.23470247795516075
    #[test]
    fn matches_pymannkendall() {
        let y = [5.1, 4.9, 5.3, 5.6, 5.2, 5.8, 6.0, 5.7, 6.2, 6.1, 6.4, 6.3];
        let r = mann_kendall(&y).unwrap();
        assert_eq!(r.s, 52.0);
        assert_close(r.s_variance, 212.66666666666666, 1e-12);
        assert_close(r.z, 3.4971999547510824, 1e-12);
        assert_close(r.p, 0.0004701692793138701, 1e-8);
        assert_close(r.tau, 0.7878787878787878, 1e-12);
    }

    #[test]
    fn matches_pymannkendall_with_ties() {
        let z = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0];
        let r = mann_kendall(&z).unwrap();
        assert_eq!(r.s, 16.0);
        assert_close(r.s_variance, 159.33333333333334, 1e-12);
        assert_close(r.z, 1.188332399294654, 1e-12);
        assert_close(r.p, 0.23470247795516075, 1e-8);
    }

    #[test]
    fn long_series_are_tested_on_block_means() {
        let ramp: Vec<f64> = (0..20_000)
            .map(|i| i as f64 + ((i * 7919) % 1000) as f64)
            .collect();
        let r = mann_kendall(&ramp).unwrap();
        assert!(r.p < 1e-10 && r.tau > 0.9, "{r:?}");
    }

    #[test]
    fn constant_series_has_no_trend() {
        let r = mann_kendall(&[2.0; 10]).unwrap();
        assert_eq!((r.s, r.p), (0.0, 1.0));
    }
}
