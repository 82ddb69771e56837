//! Shares of samples: how far a share may move by sampling alone.

use crate::{normal_quantile, Interval};

/// The half-width of the Wald interval of `a / n` at `confidence` (unclipped); `None`
/// when `n` is 0.
pub fn share_half_width(a: u64, n: u64, confidence: f64) -> Option<f64> {
    if n == 0 || a > n {
        return None;
    }
    let p = a as f64 / n as f64;
    Some(normal_quantile(0.5 + confidence / 2.0) * (p * (1.0 - p) / n as f64).sqrt())
}

/// Wald interval of `a / n` at `confidence`, clipped to [0, 1]; `None` when `n` is 0.
pub fn share_ci(a: u64, n: u64, confidence: f64) -> Option<Interval> {
    let half = share_half_width(a, n, confidence)?;
    let p = a as f64 / n as f64;
    Some(Interval {
        lo: (p - half).max(0.0),
        hi: (p + half).min(1.0),
    })
}

/// Wald interval of the difference of two shares, `a2/n2 − a1/n1`, at `confidence`,
/// each share's samples taken as independent Bernoulli draws (unpooled variance). `None`
/// when either side has no samples.
pub fn share_difference_ci(
    a1: u64,
    n1: u64,
    a2: u64,
    n2: u64,
    confidence: f64,
) -> Option<Interval> {
    if n1 == 0 || n2 == 0 || a1 > n1 || a2 > n2 {
        return None;
    }
    let (p1, p2) = (a1 as f64 / n1 as f64, a2 as f64 / n2 as f64);
    let se = (p1 * (1.0 - p1) / n1 as f64 + p2 * (1.0 - p2) / n2 as f64).sqrt();
    let half = normal_quantile(0.5 + confidence / 2.0) * se;
    Some(Interval {
        lo: p2 - p1 - half,
        hi: p2 - p1 + half,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// References from scipy: d ± norm.ppf(0.975) · sqrt(p1(1−p1)/n1 + p2(1−p2)/n2).
    #[test]
    fn difference_matches_scipy() {
        let i = share_difference_ci(700, 1000, 540, 1000, 0.95).unwrap();
        assert!((i.lo - -0.20196337359419736).abs() < 1e-9, "{i:?}");
        assert!((i.hi - -0.11803662640580248).abs() < 1e-9, "{i:?}");
        let i = share_difference_ci(30, 300, 25, 280, 0.95).unwrap();
        assert!((i.lo - -0.05833803658339071).abs() < 1e-9, "{i:?}");
        assert!((i.hi - 0.03690946515481927).abs() < 1e-9, "{i:?}");
        assert!(share_difference_ci(1, 0, 1, 2, 0.95).is_none());
    }

    #[test]
    fn share_interval_matches_scipy_and_stays_in_range() {
        // 0.7 ∓ norm.ppf(0.975)·sqrt(0.21/1000)
        let i = share_ci(700, 1000, 0.95).unwrap();
        assert!((i.lo - 0.6715974234910674).abs() < 1e-9);
        assert!((i.hi - 0.7284025765089325).abs() < 1e-9);
        assert_eq!(
            share_ci(10, 10, 0.95).unwrap(),
            Interval { lo: 1.0, hi: 1.0 }
        );
        assert!(share_ci(0, 0, 0.95).is_none());
    }
}
