use crate::{check_finite, StatsError};
use statrs::distribution::{ContinuousCDF, Normal};

/// Mann–Whitney U test (two-sided), normal approximation with tie and continuity
/// corrections: scipy's `mannwhitneyu(method="asymptotic", use_continuity=True)`.
///
/// The asymptotic form is used at every size: benchmark samples are rarely below ten,
/// and run times are continuous so exact ties are rare.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MannWhitney {
    /// U statistic of the first sample: the number of pairs (x, y) with x > y, ties ½.
    pub u: f64,
    pub z: f64,
    pub p: f64,
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

pub fn mann_whitney_u(x: &[f64], y: &[f64]) -> Result<MannWhitney, StatsError> {
    check_finite(x, 1)?;
    check_finite(y, 1)?;
    let (n1, n2) = (x.len() as f64, y.len() as f64);
    let all: Vec<f64> = x.iter().chain(y).copied().collect();
    let (ranks, tie_term) = ranks_with_ties(&all);
    let r1: f64 = ranks[..x.len()].iter().sum();
    let u = r1 - n1 * (n1 + 1.0) / 2.0;
    let n = n1 + n2;
    let mu = n1 * n2 / 2.0;
    let var = n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
    if var <= 0.0 {
        return Ok(MannWhitney { u, z: 0.0, p: 1.0 });
    }
    // Continuity correction towards the mean, as scipy does.
    let z = ((u - mu).abs() - 0.5).max(0.0) / var.sqrt() * (u - mu).signum();
    let normal = Normal::new(0.0, 1.0).expect("standard normal");
    let p = (2.0 * normal.cdf(-z.abs())).min(1.0);
    Ok(MannWhitney { u, z, p })
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

    #[test]
    fn all_equal_is_p_one() {
        assert_eq!(mann_whitney_u(&[2.0, 2.0], &[2.0, 2.0]).unwrap().p, 1.0);
    }
}
