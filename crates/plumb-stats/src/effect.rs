//! Effect sizes of new against base: Cohen's d and the Hodges–Lehmann shift, checked against numpy.
use crate::{check_finite, sorted, Moments, StatsError};

/// Cohen's d of new vs base: (mean(new) - mean(base)) / pooled standard deviation.
///
/// Beware in benchmarking: with the tiny spread of a quiet micro-benchmark the pooled
/// deviation is small, so a 0.5 % difference can score as a "large" effect (d > 0.8).
/// Judge practical importance with the ratio against a SESOI, not with d.
pub fn cohens_d(base: &[f64], new: &[f64]) -> Result<f64, StatsError> {
    Ok(cohens_d_from_moments(
        &Moments::of(base)?,
        &Moments::of(new)?,
    ))
}

/// `cohens_d` from each side's size, mean and variance.
pub fn cohens_d_from_moments(base: &Moments, new: &Moments) -> f64 {
    let (n1, n2) = (base.n as f64, new.n as f64);
    let pooled =
        (((n1 - 1.0) * base.variance + (n2 - 1.0) * new.variance) / (n1 + n2 - 2.0)).sqrt();
    let diff = new.mean - base.mean;
    if pooled == 0.0 {
        if diff == 0.0 {
            0.0
        } else {
            diff.signum() * f64::INFINITY
        }
    } else {
        diff / pooled
    }
}

/// Hodges–Lehmann estimate of the shift new - base: the median of all pairwise
/// differences. Robust to outliers where the difference of means is not.
///
/// Computed without materialising the n₁·n₂ differences (which for two runs of 60 000
/// samples would need 58 GB): the k-th smallest difference is found by bisecting over the
/// ordered bit patterns of f64, counting pairs at or below a candidate with two pointers
/// over the sorted samples — 64 passes of O(n₁ + n₂).
pub fn hodges_lehmann(base: &[f64], new: &[f64]) -> Result<f64, StatsError> {
    check_finite(base, 1)?;
    check_finite(new, 1)?;
    let (x, y) = (sorted(base), sorted(new));
    let n = (x.len() as u64) * (y.len() as u64);
    let (k_lo, k_hi) = ((n - 1) / 2, n / 2);
    let lo = kth_difference(&x, &y, k_lo);
    let hi = if k_hi == k_lo {
        lo
    } else {
        kth_difference(&x, &y, k_hi)
    };
    Ok(lo / 2.0 + hi / 2.0)
}

/// Number of pairs (i, j) with y[j] - x[i] <= t, for sorted x and y.
fn count_at_most(x: &[f64], y: &[f64], t: f64) -> u64 {
    // For each y[j] the qualifying x[i] form a suffix of x (y[j] - x[i] falls as i rises);
    // the suffix start only moves right as y[j] rises.
    let mut start = 0;
    let mut count = 0u64;
    for &yj in y {
        while start < x.len() && yj - x[start] > t {
            start += 1;
        }
        count += (x.len() - start) as u64;
    }
    count
}

fn key(v: f64) -> u64 {
    let b = v.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | (1 << 63)
    }
}

fn unkey(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

/// The k-th smallest (0-based) of the differences y[j] - x[i].
fn kth_difference(x: &[f64], y: &[f64], k: u64) -> f64 {
    let (mut lo, mut hi) = (key(y[0] - x[x.len() - 1]), key(y[y.len() - 1] - x[0]));
    // Invariant: the answer's key is in [lo, hi]; count_at_most(unkey(hi)) > k.
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if count_at_most(x, y, unkey(mid)) > k {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    unkey(lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_close;
    use crate::summary::median_of_sorted;
    use crate::welch::tests::{A, B};

    // Reference (numpy 2.4): pooled sd with ddof=1 weights -> d = 2.8804536892403294;
    //   np.median(np.subtract.outer(B, A)) -> 0.8
    #[test]
    fn matches_numpy() {
        assert_close(cohens_d(&A, &B).unwrap(), 2.8804536892403294, 1e-10);
        assert_close(hodges_lehmann(&A, &B).unwrap(), 0.8, 1e-12);
    }

    // Hand-worked: base [1,2,3], new [2,3,4]: pairwise diffs are
    // {1,0,-1, 2,1,0, 3,2,1} -> median 1; both sds are 1 so d = 1.
    fn brute_force(base: &[f64], new: &[f64]) -> f64 {
        let d: Vec<f64> = new
            .iter()
            .flat_map(|y| base.iter().map(move |x| y - x))
            .collect();
        median_of_sorted(&sorted(&d))
    }

    #[test]
    fn matches_brute_force_with_ties_negatives_and_odd_even_counts() {
        let mut state = 12345u64;
        let mut next = |m: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % m
        };
        for (n1, n2) in [(1, 1), (1, 4), (3, 5), (10, 10), (17, 33), (64, 7)] {
            let a: Vec<f64> = (0..n1).map(|_| next(50) as f64 * 0.5 - 7.0).collect();
            let b: Vec<f64> = (0..n2).map(|_| next(50) as f64 * 0.25 - 3.0).collect();
            assert_eq!(
                hodges_lehmann(&a, &b).unwrap(),
                brute_force(&a, &b),
                "{n1}x{n2}"
            );
        }
    }

    #[test]
    fn large_samples_need_no_quadratic_memory() {
        let a: Vec<f64> = (0..60_000)
            .map(|i| 1_000_000.0 + (i % 997) as f64)
            .collect();
        let b: Vec<f64> = (0..60_000)
            .map(|i| 1_000_500.0 + (i % 991) as f64)
            .collect();
        let hl = hodges_lehmann(&a, &b).unwrap();
        assert!((hl - 497.0).abs() < 5.0, "{hl}");
    }

    #[test]
    fn hand_worked() {
        assert_eq!(
            hodges_lehmann(&[1.0, 2.0, 3.0], &[2.0, 3.0, 4.0]).unwrap(),
            1.0
        );
        assert_eq!(cohens_d(&[1.0, 2.0, 3.0], &[2.0, 3.0, 4.0]).unwrap(), 1.0);
    }
}
