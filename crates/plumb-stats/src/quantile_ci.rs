//! A distribution-free confidence interval of any quantile from order statistics: the
//! number of samples below the true p-quantile is Binomial(n, p), so [x_(l), x_(u)] covers
//! it with probability F(u − 1) − F(l − 1), whatever the distribution. Equal tails: l the
//! largest rank with F(l − 1) ≤ α/2, u the smallest with F(u − 1) ≥ 1 − α/2 — the interval
//! scipy's `quantile_test(...).confidence_interval` gives. A high quantile of few samples
//! has no upper rank within the sample: that is an error, not an interval that pretends.

use crate::error::check_level;
use crate::{check_finite, percentile_of_sorted, Interval, StatsError};
use statrs::distribution::{Binomial, DiscreteCDF};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuantileCi {
    /// The quantile asked, in (0, 1).
    pub p: f64,
    /// The sample quantile (linear interpolation between order statistics).
    pub estimate: f64,
    pub level: f64,
    /// The coverage the chosen order statistics give: at least `level`.
    pub coverage: f64,
    pub interval: Interval,
    /// 1-based ranks of the interval's ends.
    pub ranks: (usize, usize),
}

/// The equal-tailed order-statistic interval of the `p`-quantile at `level`.
pub fn quantile_ci(xs: &[f64], p: f64, level: f64) -> Result<QuantileCi, StatsError> {
    check_level(level)?;
    if !(p > 0.0 && p < 1.0) {
        return Err(StatsError::BadQuantile(p));
    }
    check_finite(xs, 1)?;
    let n = xs.len();
    let below = Binomial::new(p, n as u64).expect("p in (0, 1) and n ≥ 1 are valid");
    let tail = (1.0 - level) / 2.0;
    // F(k) for k = rank − 1 ≥ 0; F(−1) = 0.
    let cdf = |rank: usize| {
        if rank == 0 {
            0.0
        } else {
            below.cdf(rank as u64 - 1)
        }
    };
    let lower = (1..=n).take_while(|&l| cdf(l) <= tail).last();
    let upper = (1..=n).find(|&u| cdf(u) >= 1.0 - tail);
    let (Some(l), Some(u)) = (lower, upper) else {
        return Err(StatsError::TooFewSamples {
            need: samples_for_quantile(p, level),
            have: n,
        });
    };
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    Ok(QuantileCi {
        p,
        estimate: percentile_of_sorted(&s, p * 100.0),
        level,
        coverage: cdf(u) - cdf(l),
        interval: Interval {
            lo: s[l - 1],
            hi: s[u - 1],
        },
        ranks: (l, u),
    })
}

/// The fewest samples for which both ends of the p-quantile's interval exist at `level`:
/// P(B ≤ 0) = (1 − p)ⁿ ≤ α/2 for the lower end and P(B ≥ n) = pⁿ ≤ α/2 for the upper.
pub fn samples_for_quantile(p: f64, level: f64) -> usize {
    let tail = (1.0 - level) / 2.0;
    let need = |q: f64| (tail.ln() / q.ln()).ceil().max(1.0) as usize;
    need(p).max(need(1.0 - p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranks(n: usize, p: f64, level: f64) -> Result<(usize, usize), StatsError> {
        let xs: Vec<f64> = (1..=n).rev().map(|i| i as f64).collect();
        quantile_ci(&xs, p, level).map(|c| {
            assert_eq!(
                (c.interval.lo, c.interval.hi),
                (c.ranks.0 as f64, c.ranks.1 as f64)
            );
            assert!(c.coverage >= level - 1e-12, "{c:?}");
            c.ranks
        })
    }

    /// Against scipy 1.17.1: `stats.quantile_test(np.arange(1, n + 1), q=0, p=p)
    /// .confidence_interval(level)`, whose ends are the ranks on 1..n.
    #[test]
    fn agrees_with_scipys_quantile_test() {
        assert_eq!(ranks(100, 0.5, 0.95).unwrap(), (40, 61));
        assert_eq!(ranks(1000, 0.99, 0.999).unwrap(), (978, 999));
        assert_eq!(ranks(50, 0.9, 0.95).unwrap(), (41, 50));
        assert_eq!(ranks(200, 0.95, 0.99).unwrap(), (181, 198));
        assert_eq!(ranks(20, 0.5, 0.95).unwrap(), (6, 15));
        // scipy's upper end is nan: no rank within 100 samples bounds p99 at 90 %.
        assert!(matches!(
            ranks(100, 0.99, 0.9),
            Err(StatsError::TooFewSamples { .. })
        ));
    }

    #[test]
    fn the_median_interval_is_median_cis() {
        let xs: Vec<f64> = (0..37).map(|i| ((i * 7919) % 101) as f64).collect();
        let q = quantile_ci(&xs, 0.5, 0.99).unwrap();
        let m = crate::median_ci(&xs, 0.99).unwrap();
        assert_eq!(q.interval, m.interval);
        assert_eq!(q.estimate, m.median);
    }

    #[test]
    fn says_how_many_samples_a_quantile_needs() {
        // p99.9 at 99.9 %: 0.999ⁿ ≤ 0.0005 → n ≥ ln 0.0005 / ln 0.999 = 7597.2 → 7,598.
        let n = samples_for_quantile(0.999, 0.999);
        assert_eq!(n, 7_598);
        let xs: Vec<f64> = (0..n).map(|i| i as f64).collect();
        assert!(quantile_ci(&xs, 0.999, 0.999).is_ok());
        assert!(quantile_ci(&xs[..n - 1], 0.999, 0.999).is_err());
        assert!(quantile_ci(&xs, 1.0, 0.9).is_err());
    }
}
