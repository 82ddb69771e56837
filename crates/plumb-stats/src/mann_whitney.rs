//! The Mann–Whitney U test of two samples (exact or normal approximation), checked against scipy.
use crate::{check_finite, StatsError};
use statrs::distribution::{ContinuousCDF, Normal};
use statrs::function::factorial::binomial;

/// Mann–Whitney U test (two-sided), as scipy's `mannwhitneyu` with `method="auto"`: the
/// exact distribution of U when the smaller sample has at most 8 values and there are no
/// ties, otherwise the normal approximation with tie and continuity corrections. (At 5 vs
/// 5 the approximation gives 0.0122 where the exact p-value is 2/252 = 0.0079.)
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MannWhitney {
    /// U statistic of the first sample: the number of pairs (x, y) with x > y, ties ½.
    pub u: f64,
    pub z: f64,
    pub p: f64,
    /// The smallest p this test can give at these sample sizes (every value of one sample
    /// beyond every value of the other). At 5 against 5 it is 2/252 = 0.0079: no result
    /// can reach 99.9 % confidence, whatever the data.
    pub min_p: f64,
}

/// Mid-ranks (1-based) of `values`, and Σ(t³ - t) over groups of ties.
fn ranks_with_ties(values: &[f64]) -> (Vec<f64>, f64) {
    let mut idx: Vec<usize> = (0..values.len()).collect();
    idx.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && values[idx[j + 1]] == values[idx[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            ranks[k] = rank;
        }
        let t = (j - i + 1) as f64;
        tie_term += t * t * t - t;
        i = j + 1;
    }
    (ranks, tie_term)
}

/// Up to this many values in the smaller sample, and without ties, p is exact.
const EXACT_MAX: usize = 8;
/// ... and while the table of U's counts stays small (16 bytes a value): beyond 200,000
/// pairs (8 against 25,000) the normal approximation is as good as exact anyway.
const EXACT_MAX_PAIRS: usize = 200_000;

/// P(U ≥ k) for samples of sizes m ≤ n without ties. The counts of U are the coefficients
/// of the Gaussian binomial [m+n choose m]_q = Π_{i=1..m} (1 − q^{n+i}) / (1 − q^i), built
/// one factor at a time. The arithmetic wraps modulo 2^128: each division is exact over
/// the integers and the final counts are below C(m+n, m) < 2^128, so they come out exact.
fn exact_sf(k: usize, m: usize, n: usize) -> f64 {
    let top = m * n;
    let mut c = vec![0u128; top + 1];
    c[0] = 1;
    for i in 1..=m {
        for j in (n + i..=top).rev() {
            c[j] = c[j].wrapping_sub(c[j - n - i]);
        }
        for j in i..=top {
            c[j] = c[j].wrapping_add(c[j - i]);
        }
    }
    let total: f64 = c.iter().map(|&v| v as f64).sum();
    let tail: f64 = c[k.min(top + 1)..].iter().map(|&v| v as f64).sum();
    tail / total
}

pub fn mann_whitney_u(x: &[f64], y: &[f64]) -> Result<MannWhitney, StatsError> {
    check_finite(x, 1)?;
    check_finite(y, 1)?;
    let (n1, n2) = (x.len() as f64, y.len() as f64);
    let all: Vec<f64> = x.iter().chain(y).copied().collect();
    let (ranks, tie_term) = ranks_with_ties(&all);
    let r1: f64 = ranks[..x.len()].iter().sum();
    let u = r1 - n1 * (n1 + 1.0) / 2.0;
    let exact = x.len().min(y.len()) <= EXACT_MAX && x.len() * y.len() <= EXACT_MAX_PAIRS;
    if exact && tie_term == 0.0 {
        let u_max = u.max(n1 * n2 - u);
        let p =
            (2.0 * exact_sf(u_max as usize, x.len().min(y.len()), x.len().max(y.len()))).min(1.0);
        let z = (u - n1 * n2 / 2.0) / (n1 * n2 * (n1 + n2 + 1.0) / 12.0).sqrt();
        let (small, large) = (x.len().min(y.len()), x.len().max(y.len()));
        // Only the most extreme arrangement of the C(m+n, m) reaches it.
        let min_p = (2.0 / binomial((small + large) as u64, small as u64)).min(1.0);
        return Ok(MannWhitney { u, z, p, min_p });
    }
    let n = n1 + n2;
    let mu = n1 * n2 / 2.0;
    let var = n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
    if var <= 0.0 {
        return Ok(MannWhitney {
            u,
            z: 0.0,
            p: 1.0,
            min_p: 1.0,
        });
    }
    // Continuity correction towards the mean, as scipy does.
    let z = ((u - mu).abs() - 0.5).max(0.0) / var.sqrt() * (u - mu).signum();
    let normal = Normal::new(0.0, 1.0).expect("standard normal");
    let p = (2.0 * normal.cdf(-z.abs())).min(1.0);
    let min_p = (2.0 * normal.cdf(-((mu - 0.5).max(0.0) / var.sqrt()))).min(1.0);
    Ok(MannWhitney { u, z, p, min_p })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_close;
    use crate::welch::tests::{A, B};

    // Reference: scipy.stats.mannwhitneyu(A, B, method='asymptotic', use_continuity=True)
    //   statistic 2.0, pvalue 0.00014594092821623283
    #[test]
    fn matches_scipy() {
        let r = mann_whitney_u(&A, &B).unwrap();
        assert_eq!(r.u, 2.0);
        assert_close(r.p, 0.00014594092821623283, 1e-9);
    }

    /// The smallest p at these sizes, from scipy 1.17.1's `mannwhitneyu` of fully
    /// separated samples: 1..=5 vs 6..=10 (exact) 0.007936507936507936 = 2/252; 1..=3 vs
    /// 4..=12 (exact) 0.00909090909090909; 1..=20 vs 21..=40 (asymptotic)
    /// 6.795615128173358e-08.
    #[test]
    fn the_smallest_p_at_these_sizes_matches_scipy() {
        let seq = |a: u32, b: u32| (a..=b).map(f64::from).collect::<Vec<_>>();
        let cases = [
            (seq(1, 5), seq(6, 10), 0.007936507936507936),
            (seq(1, 3), seq(4, 12), 0.00909090909090909),
            (seq(1, 20), seq(21, 40), 6.795615128173358e-08),
        ];
        for (x, y, want) in cases {
            let r = mann_whitney_u(&x, &y).unwrap();
            assert_close(r.min_p, want, 1e-9);
            assert_close(r.p, want, 1e-9);
            // Interleaved samples of the same sizes (no ties) have the same floor.
            let mixed: Vec<f64> = x.iter().map(|v| v + 0.5 * y.len() as f64 + 0.25).collect();
            assert_close(mann_whitney_u(&mixed, &y).unwrap().min_p, want, 1e-9);
        }
    }

    // Reference: scipy, c = [1,2,2,3,3,3,4,5], d = [3,4,4,5,5,6,7]
    //   statistic 7.5, pvalue 0.018530522991017574 (tie correction matters here)
    #[test]
    fn matches_scipy_with_ties() {
        let c = [1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 4.0, 5.0];
        let d = [3.0, 4.0, 4.0, 5.0, 5.0, 6.0, 7.0];
        let r = mann_whitney_u(&c, &d).unwrap();
        assert_eq!(r.u, 7.5);
        assert_close(r.p, 0.018530522991017574, 1e-9);
    }

    /// Reference: scipy 1.17.1 `mannwhitneyu` (method "auto", exact here).
    #[test]
    fn small_samples_without_ties_are_exact() {
        let r = mann_whitney_u(&[1.0, 2.0, 3.0, 4.0, 5.0], &[6.0, 7.0, 8.0, 9.0, 10.0]).unwrap();
        assert_close(r.p, 2.0 / 252.0, 1e-12);
        let r = mann_whitney_u(
            &[1.5, 2.0, 3.5, 8.0, 9.0],
            &[3.0, 4.0, 5.0, 6.0, 7.0, 10.0, 11.0],
        )
        .unwrap();
        assert_eq!(r.u, 11.0);
        assert_close(r.p, 0.3434343434343435, 1e-12);
        // 8 against 40: the smaller sample decides; scipy 0.01226444504579758 (the
        // asymptotic form would say 0.01435405539937727).
        let x: Vec<f64> = (0..8).map(|i| 0.5 + i as f64 * 1.01).collect();
        let y: Vec<f64> = (0..40).map(|i| 1.0 + i as f64 * 0.37).collect();
        let r = mann_whitney_u(&x, &y).unwrap();
        assert_eq!(r.u, 71.0);
        assert_close(r.p, 0.01226444504579758, 1e-12);
    }

    #[test]
    fn all_equal_is_p_one() {
        assert_eq!(mann_whitney_u(&[2.0, 2.0], &[2.0, 2.0]).unwrap().p, 1.0);
    }
}
