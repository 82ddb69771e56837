//! Whether a sample has more than one mode: dip test and density peaks, with mValue beside them.
use crate::dip_test::dip_test_of_spread;
use crate::modes::modes_of_sorted;
use crate::ties::sorted_and_spread;
use crate::{check_finite, mvalue, DipTest, Modality, Mode, StatsError};

/// Whether a sample has more than one mode, by two detectors, with BenchmarkDotNet's mValue
/// beside them as a figure users know.
///
/// Detected when the dip test rejects unimodality at 1 %, or when the kernel density has
/// two or more peaks each holding at least 5 % of the values (and 5 of them), with the
/// density between them below a fifth of the lower peak, and each group standing out
/// from that valley at its own scale (`modes`). The dip is calibrated
/// but blind to a minor mode (a 90/10 mixture scores like a unimodal sample); the density
/// peaks see it. mValue is not used to decide: at its bimodal threshold 3.2 it alarmed on
/// 38 % of gamma samples of 100 and 82 % of 1000. The rates of each, measured, are in
/// `bench/results/modality.md` (`bench/modality.sh`).
#[derive(Debug, Clone, PartialEq)]
pub struct Multimodality {
    pub detected: bool,
    /// In increasing location; one when the modes cannot be told apart.
    pub modes: Vec<Mode>,
    pub dip: DipTest,
    pub mvalue: Modality,
    /// How many values mValue was taken over (`MVALUE_MAX_VALUES` at most).
    pub mvalue_values: usize,
}

/// The level at which the dip test's rejection counts.
pub const DIP_ALPHA: f64 = 0.01;

/// mValue's adaptive histogram costs far more than linear time (timed in
/// bench/results/modality.md), so above this many values it is taken over this many
/// evenly spaced order statistics (`thin`): the same shape, the bars a little smoother,
/// and not the figure BenchmarkDotNet would print for the whole sample. The detectors see
/// every value.
pub const MVALUE_MAX_VALUES: usize = 2000;

/// Needs at least 4 values.
pub fn multimodality(xs: &[f64]) -> Result<Multimodality, StatsError> {
    check_finite(xs, 4)?;
    let (s, spread, ties) = sorted_and_spread(xs);
    let dip = dip_test_of_spread(&spread, ties);
    let modes = modes_of_sorted(&spread, &s);
    let mvalue = mvalue(&thin(&s, MVALUE_MAX_VALUES))?;
    Ok(Multimodality {
        detected: dip.p_value < DIP_ALPHA || modes.len() >= 2,
        modes,
        dip,
        mvalue,
        mvalue_values: s.len().min(MVALUE_MAX_VALUES),
    })
}

/// At most `k` evenly spaced order statistics of sorted values, the least and the largest
/// among them; all of them when there are no more than `k`.
fn thin(s: &[f64], k: usize) -> Vec<f64> {
    if s.len() <= k {
        return s.to_vec();
    }
    let step = (s.len() - 1) as f64 / (k - 1) as f64;
    (0..k)
        .map(|i| s[(i as f64 * step).round() as usize])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dip::tests::normalish;
    use crate::sorted;

    /// The case of the issue that asked for this: a slow path taken by 30 % of the runs,
    /// twice as slow, which the fixed-bin mValue never flagged.
    #[test]
    fn a_slow_path_in_30_percent_of_runs_is_found_and_named() {
        let xs = [normalish(70, 1.0, 0.02, 11), normalish(30, 2.0, 0.04, 12)].concat();
        let m = multimodality(&xs).unwrap();
        assert!(m.detected);
        assert!(m.dip.p_value < DIP_ALPHA, "{m:?}");
        assert!(
            m.mvalue.mvalue < Modality::BIMODAL,
            "mValue alone misses it: {m:?}"
        );
        assert_eq!(m.modes.len(), 2);
        assert_eq!((m.modes[0].share, m.modes[1].share), (0.7, 0.3));
        assert!((m.modes[1].location / m.modes[0].location - 2.0).abs() < 0.05);
    }

    #[test]
    fn a_large_sample_takes_mvalue_over_order_statistics() {
        let xs = normalish(20_000, 10.0, 1.0, 3);
        let m = multimodality(&xs).unwrap();
        let thinned = thin(&sorted(&xs), MVALUE_MAX_VALUES);
        assert_eq!(thinned.len(), MVALUE_MAX_VALUES);
        assert_eq!(m.mvalue, mvalue(&thinned).unwrap());
        assert_eq!(m.mvalue_values, MVALUE_MAX_VALUES);
        assert!(!m.detected, "{m:?}");
        let s = sorted(&xs);
        assert_eq!(
            (thinned[0], thinned[MVALUE_MAX_VALUES - 1]),
            (s[0], s[s.len() - 1])
        );
        assert_eq!(thin(&[1.0, 2.0], 5), vec![1.0, 2.0]);
    }

    #[test]
    fn a_normal_sample_is_not_multimodal() {
        for seed in 1..30 {
            let m = multimodality(&normalish(200, 10.0, 1.0, seed)).unwrap();
            assert!(!m.detected, "seed {seed}: {m:?}");
        }
    }
}
