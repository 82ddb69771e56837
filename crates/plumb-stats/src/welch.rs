//! Welch's t-test: two means with unequal variances, checked against scipy.
use crate::student_t::t_sf;
use crate::{Moments, StatsError};

/// Welch's unequal-variances t-test of mean(x) - mean(y).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WelchTest {
    pub t: f64,
    /// Welch–Satterthwaite degrees of freedom.
    pub df: f64,
    /// Two-sided p-value.
    pub p: f64,
}

pub(crate) struct WelchParts {
    pub diff: f64,
    pub se: f64,
    pub df: f64,
}

pub(crate) fn welch_parts(x: &Moments, y: &Moments) -> WelchParts {
    let (nx, ny) = (x.n as f64, y.n as f64);
    let (vx, vy) = (x.mean_variance(), y.mean_variance());
    let se2 = vx + vy;
    let df = se2 * se2 / (vx * vx / (nx - 1.0) + vy * vy / (ny - 1.0));
    WelchParts {
        diff: x.mean - y.mean,
        se: se2.sqrt(),
        // Two constant samples: df is 0/0; any df gives the same (degenerate) answer.
        df: if df.is_finite() { df } else { nx + ny - 2.0 },
    }
}

/// Welch's unequal-variances t-test of mean(x) - mean(y).
pub fn welch_t_test(x: &[f64], y: &[f64]) -> Result<WelchTest, StatsError> {
    Ok(welch_from_moments(&Moments::of(x)?, &Moments::of(y)?))
}

/// Welch's test from each side's size, mean and variance (scipy's
/// `ttest_ind_from_stats(..., equal_var=False)`).
pub fn welch_from_moments(x: &Moments, y: &Moments) -> WelchTest {
    let w = welch_parts(x, y);
    if w.se == 0.0 {
        // No spread at all: any difference is certain, none is certainly none.
        let p = if w.diff == 0.0 { 1.0 } else { 0.0 };
        let t = if w.diff == 0.0 {
            0.0
        } else {
            w.diff.signum() * f64::INFINITY
        };
        return WelchTest { t, df: w.df, p };
    }
    let t = w.diff / w.se;
    WelchTest {
        t,
        df: w.df,
        p: (2.0 * t_sf(t.abs(), w.df)).min(1.0),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::assert_close;

    pub const A: [f64; 10] = [10.2, 10.5, 10.1, 10.8, 10.3, 10.4, 10.6, 10.2, 10.9, 10.3];
    pub const B: [f64; 12] = [
        11.0, 11.4, 10.9, 11.6, 11.2, 11.1, 11.5, 11.3, 10.8, 11.7, 11.2, 11.0,
    ];

    // Reference: scipy.stats.ttest_ind(A, B, equal_var=False)
    //   statistic -6.765570749516074, pvalue 1.5348799003236935e-06, df 19.656037896652897
    #[test]
    fn matches_scipy() {
        let w = welch_t_test(&A, &B).unwrap();
        assert_close(w.t, -6.765570749516074, 1e-10);
        assert_close(w.df, 19.656037896652897, 1e-10);
        assert_close(w.p, 1.5348799003236935e-06, 1e-6);
    }

    #[test]
    fn identical_constant_samples_are_not_different() {
        let w = welch_t_test(&[1.0, 1.0], &[1.0, 1.0, 1.0]).unwrap();
        assert_eq!(w.p, 1.0);
        let w = welch_t_test(&[1.0, 1.0], &[2.0, 2.0]).unwrap();
        assert_eq!(w.p, 0.0);
    }
}
