//! Hartigan's dip test of unimodality, its p-value checked against the `diptest` package.
use crate::dip::{dip_of_sorted, Dip};
use crate::dip_null::{PROBS, ROWS};
use crate::ties::spread_ties;
use crate::{check_finite, sorted, StatsError};

/// Hartigan's dip test of unimodality.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DipTest {
    pub dip: Dip,
    /// The chance of a dip this large from a uniform sample of this size, interpolated in
    /// a simulated table: within 0.003 + 10 % of the `diptest` package's value (tested);
    /// 0.001 means "0.001 or less".
    pub p_value: f64,
    /// Whether tied values were spread before the dip was taken (see `dip_test`).
    pub ties_spread: bool,
}

/// The smallest p-value the table can tell apart.
pub const DIP_P_FLOOR: f64 = 0.001;

/// The dip test of a sample of at least 4 values, its ties spread first (`ties.rs`).
pub fn dip_test(xs: &[f64]) -> Result<DipTest, StatsError> {
    check_finite(xs, 4)?;
    let mut s = sorted(xs);
    let ties_spread = spread_ties(&mut s);
    Ok(dip_test_of_spread(&s, ties_spread))
}

/// The dip test of sorted values whose ties are already spread.
pub(crate) fn dip_test_of_spread(s: &[f64], ties_spread: bool) -> DipTest {
    let dip = dip_of_sorted(s);
    DipTest {
        dip,
        p_value: null_p_value(s.len(), dip.dip),
        ties_spread,
    }
}

/// P(dip ≥ `dip`) for a uniform sample of `n`: the table's quantiles of √n·dip are
/// interpolated linearly in 1/√n between the sizes around n, then the probability
/// linearly between quantiles. The largest size stands for any larger n; its upper
/// quantiles still creep up (0.6 % from 5,000 to 10,000 at 0.99), so p is slightly low
/// far beyond it.
fn null_p_value(n: usize, dip: f64) -> f64 {
    let q = quantiles_at(n);
    let s = (n as f64).sqrt() * dip;
    if s >= q[q.len() - 1] {
        return DIP_P_FLOOR;
    }
    if s <= q[0] {
        return 1.0 - PROBS[0] * s / q[0];
    }
    let i = q.partition_point(|&qi| qi <= s) - 1;
    let t = (s - q[i]) / (q[i + 1] - q[i]);
    1.0 - (PROBS[i] + t * (PROBS[i + 1] - PROBS[i]))
}

fn quantiles_at(n: usize) -> [f64; PROBS.len()] {
    let first = ROWS[0];
    let last = ROWS[ROWS.len() - 1];
    if n <= first.0 {
        return first.1;
    }
    if n >= last.0 {
        return last.1;
    }
    let i = ROWS.partition_point(|r| r.0 <= n) - 1;
    let ((n0, q0), (n1, q1)) = (ROWS[i], ROWS[i + 1]);
    let w = |m: usize| 1.0 / (m as f64).sqrt();
    let t = (w(n) - w(n0)) / (w(n1) - w(n0));
    std::array::from_fn(|k| q0[k] + t * (q1[k] - q0[k]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// p-values of the `diptest` package 0.12.0 (Python), which interpolates in R's
    /// qDiptab (Maechler's simulation, far more samples than ours), at the same n and dip:
    /// `diptest.consts.Consts.compute_pval_interpolation(n, dip)`.
    #[test]
    fn p_values_agree_with_the_diptest_package() {
        let cases = [
            // (n, dip, diptest's p)
            (10, 0.15, 0.022541939921913667),
            (20, 0.12, 0.010988295576826124),
            (50, 0.07, 0.05255391591348857),
            (100, 0.04, 0.2933174530040713),
            (100, 0.05, 0.06418740391979927),
            (100, 0.0589, 0.010385273474422418),
            (200, 0.035, 0.08236911373942579),
            (500, 0.03, 0.0031465956023445374),
            (1000, 0.017, 0.04875332441433311),
            (1000, 0.0195, 0.01098657648251855),
            (5000, 0.0087, 0.013302209482578431),
            (30000, 0.004, 0.003011639104457342),
        ];
        for (n, dip, want) in cases {
            let got = null_p_value(n, dip);
            assert!(
                (got - want).abs() <= 0.003 + 0.1 * want,
                "n {n} dip {dip}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn a_unimodal_lattice_is_not_called_bimodal() {
        // 1×1, 3×2, 6×3, 3×4, 1×5 … as counts: a staircase that rises then falls.
        let mut xs = Vec::new();
        for (v, k) in [(1.0, 10), (2.0, 30), (3.0, 60), (4.0, 30), (5.0, 10)] {
            xs.extend(std::iter::repeat_n(v, k));
        }
        let t = dip_test(&xs).unwrap();
        assert!(t.ties_spread);
        assert!(t.p_value > 0.5, "{t:?}");
        // Two humps stay two humps.
        let mut bi = Vec::new();
        for (v, k) in [(1.0, 40), (2.0, 5), (3.0, 5), (4.0, 40)] {
            bi.extend(std::iter::repeat_n(v, k));
        }
        assert!(dip_test(&bi).unwrap().p_value <= 0.01);
    }
}
