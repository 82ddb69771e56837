use crate::error::check_level;
use crate::{
    check_finite, summary::median_of_sorted, summary::percentile_of_sorted, Interval, StatsError,
};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// A percentile-bootstrap confidence interval of the median.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BootstrapCi {
    pub median: f64,
    pub level: f64,
    pub interval: Interval,
    pub resamples: usize,
}

/// Percentile bootstrap of the median with `resamples` resamples from a fixed seed, so the
/// same samples always give the same interval (a report must not change on re-render).
pub fn bootstrap_median_ci(
    xs: &[f64],
    level: f64,
    resamples: usize,
    seed: u64,
) -> Result<BootstrapCi, StatsError> {
    check_level(level)?;
    check_finite(xs, 2)?;
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut scratch = vec![0.0; xs.len()];
    let mut medians = Vec::with_capacity(resamples);
    for _ in 0..resamples.max(1) {
        for slot in scratch.iter_mut() {
            *slot = xs[rng.gen_range(0..xs.len())];
        }
        medians.push(median_in_place(&mut scratch));
    }
    medians.sort_by(f64::total_cmp);
    let alpha = 1.0 - level;
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    Ok(BootstrapCi {
        median: median_of_sorted(&s),
        level,
        interval: Interval {
            lo: percentile_of_sorted(&medians, 100.0 * alpha / 2.0),
            hi: percentile_of_sorted(&medians, 100.0 * (1.0 - alpha / 2.0)),
        },
        resamples: medians.len(),
    })
}

/// The median by selection, O(n): the resamples are many and need no full sort.
fn median_in_place(xs: &mut [f64]) -> f64 {
    let n = xs.len();
    let k = n / 2;
    let (left, mid, _) = xs.select_nth_unstable_by(k, f64::total_cmp);
    let upper = *mid;
    if n % 2 == 1 {
        upper
    } else {
        let lower = left.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        lower + 0.5 * (upper - lower)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Reference: the *exact* bootstrap distribution of the median, not another bootstrap.
    // For odd n the resampled median is the order statistic x_(j) with
    //   P(median* ≤ x_(j)) = P(Binomial(n, j/n) ≥ (n+1)/2)     (scipy.stats.binom.sf)
    // For x below (n = 21, median 5) the exact 2.5 % and 97.5 % quantiles of that
    // distribution are 3.0 and 6.0 (order statistics 7 and 15, 1-based).
    #[test]
    fn matches_exact_bootstrap_quantiles() {
        let x = [
            3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0, 8.0, 9.0, 7.0, 9.0, 3.0, 2.0,
            3.0, 8.0, 4.0, 6.0,
        ];
        let ci = bootstrap_median_ci(&x, 0.95, 20_000, 7).unwrap();
        assert_eq!(ci.median, 5.0);
        assert_eq!(ci.interval.lo, 3.0);
        assert_eq!(ci.interval.hi, 6.0);
    }

    #[test]
    fn selection_median_equals_sorted_median() {
        for v in [
            vec![3.0],
            vec![2.0, 1.0],
            vec![5.0, 1.0, 4.0, 2.0],
            vec![9.0, 1.0, 8.0, 2.0, 7.0],
        ] {
            let mut s = v.clone();
            s.sort_by(f64::total_cmp);
            assert_eq!(median_in_place(&mut v.clone()), median_of_sorted(&s));
        }
    }

    #[test]
    fn same_seed_same_interval() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0];
        let a = bootstrap_median_ci(&x, 0.9, 500, 1).unwrap();
        let b = bootstrap_median_ci(&x, 0.9, 500, 1).unwrap();
        assert_eq!(a, b);
        assert!(a.interval.contains(a.median));
    }
}
