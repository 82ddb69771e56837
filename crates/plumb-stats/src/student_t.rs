//! The Student-t confidence interval of the mean (BenchmarkDotNet's Error), checked against scipy.
use crate::error::check_level;
use crate::{check_finite, mean, variance, Interval, StatsError};
use statrs::distribution::{ContinuousCDF, StudentsT};

/// A Student-t confidence interval of the mean.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeanCi {
    pub mean: f64,
    pub level: f64,
    pub interval: Interval,
    /// Half-width of the interval: BenchmarkDotNet's "Error" column.
    pub error: f64,
}

pub use crate::quantiles::t_quantile;

/// Upper-tail probability P(T > t) of Student's t.
pub(crate) fn t_sf(t: f64, df: f64) -> f64 {
    let dist = StudentsT::new(0.0, 1.0, df).expect("df > 0 checked by callers");
    // For the far right tail use symmetry: 1 - cdf(t) loses precision, cdf(-t) does not.
    dist.cdf(-t)
}

/// Mean ± t(1 - (1 - level)/2, n - 1) · s / √n. Needs n ≥ 2.
pub fn mean_ci(xs: &[f64], level: f64) -> Result<MeanCi, StatsError> {
    check_level(level)?;
    check_finite(xs, 2)?;
    let n = xs.len() as f64;
    let m = mean(xs);
    let t = t_quantile(1.0 - (1.0 - level) / 2.0, n - 1.0);
    let error = t * (variance(xs) / n).sqrt();
    Ok(MeanCi {
        mean: m,
        level,
        interval: Interval {
            lo: m - error,
            hi: m + error,
        },
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_close;

    // Reference (scipy 1.17): x as in summary.rs;
    //   h = st.t.ppf(1 - (1 - lvl)/2, 9) * x.std(ddof=1) / sqrt(10)
    //   lvl 0.999 -> h = 8.545003587211704; lvl 0.95 -> h = 4.043190651054798
    const X: [f64; 10] = [12.1, 11.8, 12.5, 13.0, 11.9, 12.2, 30.0, 12.0, 12.3, 11.7];

    #[test]
    fn matches_scipy_at_999_and_95() {
        let ci = mean_ci(&X, 0.999).unwrap();
        assert_close(ci.error, 8.545003587211704, 1e-7);
        assert_close(ci.interval.lo, 5.404996412788295, 1e-7);
        let ci = mean_ci(&X, 0.95).unwrap();
        assert_close(ci.error, 4.043190651054798, 1e-7);
    }

    #[test]
    fn rejects_single_sample_and_bad_level() {
        assert!(mean_ci(&[1.0], 0.95).is_err());
        assert_eq!(mean_ci(&X, 1.0), Err(StatsError::BadLevel(1.0)));
    }
}
