//! A distribution-free confidence interval of the median from order statistics: the
//! number of samples below the true median is Binomial(n, ½), so [x_(k), x_(n+1−k)] covers
//! it with probability 1 − 2·P(B ≤ k − 1), whatever the distribution. Exact (no
//! resampling, no randomness), O(n log n) for the sort, and — unlike a percentile
//! bootstrap of the median — not too narrow for small n.

use crate::error::check_level;
use crate::{check_finite, summary::median_of_sorted, Interval, StatsError};
use statrs::distribution::{Binomial, DiscreteCDF};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MedianCi {
    pub median: f64,
    /// The coverage asked for.
    pub level: f64,
    /// The coverage the chosen order statistics give: at least `level` (they are discrete).
    pub coverage: f64,
    pub interval: Interval,
    /// 1-based ranks of the interval's ends, k and n + 1 − k.
    pub ranks: (usize, usize),
}

/// The fewest samples whose [min, max] covers the median at `level`: 1 − 2⁻⁽ⁿ⁻¹⁾ ≥ level.
/// Computed directly as 2^(n−1) · (1 − level) ≥ 1 (2^(n−1) is exact; a 1e-12 allowance
/// absorbs the rounding of 1 − level), not through a floating-point binomial CDF that can
/// round an exact boundary such as n = 3 at 75 % to the wrong side.
pub fn samples_needed(level: f64) -> usize {
    let mut n = 2usize;
    while (1.0 - level) * 2f64.powi(n as i32 - 1) < 1.0 - 1e-12 {
        n += 1;
    }
    n
}

/// The narrowest order-statistic interval of the median with coverage ≥ `level`. An error
/// when n is too small for that level (even [min, max] covers only 1 − 2⁻⁽ⁿ⁻¹⁾).
pub fn median_ci(xs: &[f64], level: f64) -> Result<MedianCi, StatsError> {
    check_level(level)?;
    let need = samples_needed(level);
    check_finite(xs, need)?;
    let n = xs.len();
    let below = Binomial::new(0.5, n as u64).expect("p = 0.5 and n ≥ 2 are valid");
    let tail = (1.0 - level) / 2.0;
    // Largest k in 1..=n/2 with P(B ≤ k − 1) ≤ tail; the CDF grows with k. k = 1 exists
    // because n ≥ need: P(B = 0) = 2⁻ⁿ ≤ tail.
    let (mut lo, mut hi) = (1usize, n / 2);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if below.cdf(mid as u64 - 1) <= tail {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let k = lo;
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    Ok(MedianCi {
        median: median_of_sorted(&s),
        level,
        coverage: 1.0 - 2.0 * below.cdf(k as u64 - 1),
        interval: Interval {
            lo: s[k - 1],
            hi: s[n - k],
        },
        ranks: (k, n + 1 - k),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranks(n: usize, level: f64) -> Result<((usize, usize), f64), StatsError> {
        let xs: Vec<f64> = (1..=n).rev().map(|i| i as f64).collect();
        median_ci(&xs, level).map(|c| {
            // With x = 1..n (given in reverse), the ends are their own ranks.
            assert_eq!(
                (c.interval.lo, c.interval.hi),
                (c.ranks.0 as f64, c.ranks.1 as f64)
            );
            (c.ranks, c.coverage)
        })
    }

    // References from scipy 1.17: the largest k with binom.cdf(k - 1, n, 0.5) <= (1 - level)/2,
    // coverage 1 - 2 * binom.cdf(k - 1, n, 0.5).
    #[test]
    fn matches_scipy_binomial_ranks() {
        let cases = [
            (100, 0.95, (40, 61), 0.9647997997822951),
            (100, 0.999, (34, 67), 0.9991262801630876),
            (21, 0.95, (6, 16), 0.9733963012695312),
            (11, 0.999, (1, 11), 0.9990234375),
            (12, 0.999, (1, 12), 0.99951171875),
            (1000, 0.999, (448, 553), 0.9991100140352307),
            (5, 0.9, (1, 5), 0.9375),
        ];
        for (n, level, want, coverage) in cases {
            let (got, cov) = ranks(n, level).unwrap();
            assert_eq!(got, want, "n {n} level {level}");
            assert!((cov - coverage).abs() < 1e-12, "n {n}: {cov} vs {coverage}");
        }
    }

    #[test]
    fn samples_needed_by_hand() {
        // 1 − 2^-(n−1) ≥ level: 0.999 needs 2^(n−1) ≥ 1000, n = 11; 0.75 needs n = 3
        // exactly (1 − 1/4); 0.5 needs n = 2.
        assert_eq!(samples_needed(0.999), 11);
        assert_eq!(samples_needed(0.75), 3);
        assert_eq!(samples_needed(0.5), 2);
        let (r, coverage) = ranks(3, 0.75).unwrap();
        assert_eq!(r, (1, 3));
        assert!((coverage - 0.75).abs() < 1e-12);
    }

    #[test]
    fn too_few_samples_for_the_level_is_an_error() {
        // scipy: even [min, max] of 10 covers 1 - 2 * 0.5**10 = 0.998 < 0.999.
        assert!(matches!(
            ranks(10, 0.999),
            Err(StatsError::TooFewSamples { have: 10, need: 11 })
        ));
        assert!(ranks(4, 0.9).is_err());
    }

    #[test]
    fn median_and_interval_on_unsorted_data() {
        // n = 21 at 95 %: ranks 6 and 16 of the sorted data below.
        let x = [
            3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0, 8.0, 9.0, 7.0, 9.0, 3.0, 2.0,
            3.0, 8.0, 4.0, 6.0,
        ];
        // sorted: 1 1 2 2 3 3 3 3 4 4 5 5 5 6 6 7 8 8 9 9 9
        let c = median_ci(&x, 0.95).unwrap();
        assert_eq!(c.median, 5.0);
        assert_eq!((c.interval.lo, c.interval.hi), (3.0, 7.0));
    }
}
