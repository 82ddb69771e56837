//! plumb's test of one split: do the points before and after differ, by their levels and by
//! their ranks, allowing for the split having been chosen as the most different one?
//!
//! - The level test weighs each point by its own precision: w = 1/(τ² + se²), τ² the
//!   between-run variance left once the points' own errors are taken out (a moment
//!   estimate, as DerSimonian & Laird 1986 do across studies), so a run measured with ±8 %
//!   counts less than one measured with ±0.5 % while the between-run noise dominates
//!   neither way. The scale comes from the data (weighted least squares with an estimated
//!   dispersion), so a point whose interval is too narrow cannot make the test overconfident.
//! - The rank test (Mann–Whitney) is blind to how far out a point lies: one slow run is one
//!   rank, never a new level.
//! - Both must reject (an intersection–union test: its level is the larger p's), and that p
//!   is multiplied by the number of splits that could have been chosen (Bonferroni): the
//!   energy statistic picked the most different split, so its raw p is not a p-value.
use crate::{mann_whitney_u, t_quantile, Interval};

/// A level either side of a change: its points and their (weighted) mean, with an interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Level {
    pub n: usize,
    pub mean: f64,
    pub interval: Interval,
}

/// The test of a split at `index`: the levels and the p-values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SplitTest {
    pub before: Level,
    pub after: Level,
    /// The level test's raw p (weighted Student t, two-sided).
    pub p_level: f64,
    /// The rank test's raw p (Mann–Whitney, two-sided).
    pub p_rank: f64,
    /// How many splits the search could have chosen from.
    pub splits: usize,
    /// The change's p: max(p_level, p_rank) × splits, at most 1.
    pub p: f64,
}

/// A segment of the series with the standard errors of its points (None: all alike).
#[derive(Clone, Copy)]
pub(super) struct Segment<'a> {
    pub x: &'a [f64],
    pub se: Option<&'a [f64]>,
}

impl<'a> Segment<'a> {
    pub(super) fn range(&self, from: usize, to: usize) -> Segment<'a> {
        Segment {
            x: &self.x[from..to],
            se: self.se.map(|s| &s[from..to]),
        }
    }
}

/// Tests [0, split) against [split, len) of `seg`, the search having had `splits` choices;
/// levels' intervals at `confidence`. Segments shorter than `min_segment` give p = 1.
pub(super) fn split_test(
    seg: Segment,
    split: usize,
    splits: usize,
    min_segment: usize,
    confidence: f64,
) -> SplitTest {
    let (left, right) = (seg.range(0, split), seg.range(split, seg.x.len()));
    let (before, after, p_level) = level_test(left, right, confidence);
    let short = left.x.len() < min_segment.max(1) || right.x.len() < min_segment.max(1);
    let p_rank = mann_whitney_u(left.x, right.x).map_or(1.0, |m| m.p);
    let p = if short {
        1.0
    } else {
        (p_level.max(p_rank) * splits.max(1) as f64).min(1.0)
    };
    SplitTest {
        before,
        after,
        p_level,
        p_rank,
        splits,
        p,
    }
}

/// The weighted level test: both levels and the two-sided p of their difference.
fn level_test(left: Segment, right: Segment, confidence: f64) -> (Level, Level, f64) {
    let n = left.x.len() + right.x.len();
    let df = n as f64 - 2.0;
    let (ml, mr) = (plain_mean(left.x), plain_mean(right.x));
    let ss = sum_sq(left.x, ml) + sum_sq(right.x, mr);
    let tau2 = between_run_variance(ss, df, left, right);
    let (wl, wr) = (weights(left, tau2), weights(right, tau2));
    let (ml, sl) = weighted_mean(left.x, &wl);
    let (mr, sr) = weighted_mean(right.x, &wr);
    // The dispersion left after each level: the weights' scale, estimated from the data.
    let phi = if df > 0.0 {
        (weighted_sum_sq(left.x, &wl, ml) + weighted_sum_sq(right.x, &wr, mr)) / df
    } else {
        f64::NAN
    };
    let level = |n: usize, mean: f64, w_sum: f64| {
        let half = if df > 0.0 {
            t_quantile(0.5 + confidence / 2.0, df) * (phi / w_sum).sqrt()
        } else {
            f64::INFINITY
        };
        Level {
            n,
            mean,
            interval: Interval {
                lo: mean - half,
                hi: mean + half,
            },
        }
    };
    let se_diff = (phi * (1.0 / sl + 1.0 / sr)).sqrt();
    let p = if df <= 0.0 {
        1.0
    } else if se_diff == 0.0 {
        if ml == mr {
            1.0
        } else {
            0.0
        }
    } else {
        super::two_sided_t_p((mr - ml) / se_diff, df)
    };
    (level(left.x.len(), ml, sl), level(right.x.len(), mr, sr), p)
}

/// τ²: the pooled variance of the points about their levels less the mean of their own
/// squared errors, at least 0; 0 when the points carry no errors (then all weigh alike).
fn between_run_variance(ss: f64, df: f64, left: Segment, right: Segment) -> f64 {
    let (Some(a), Some(b)) = (left.se, right.se) else {
        return 0.0;
    };
    if df <= 0.0 {
        return 0.0;
    }
    let own: f64 = a.iter().chain(b).map(|s| s * s).sum::<f64>() / (a.len() + b.len()) as f64;
    (ss / df - own).max(0.0)
}

fn weights(seg: Segment, tau2: f64) -> Vec<f64> {
    match seg.se {
        Some(se) if se.iter().all(|s| tau2 + s * s > 0.0) => {
            se.iter().map(|s| 1.0 / (tau2 + s * s)).collect()
        }
        _ => vec![1.0; seg.x.len()],
    }
}

fn plain_mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

fn sum_sq(x: &[f64], m: f64) -> f64 {
    x.iter().map(|v| (v - m) * (v - m)).sum()
}

/// The weighted mean and the sum of the weights.
fn weighted_mean(x: &[f64], w: &[f64]) -> (f64, f64) {
    let sw: f64 = w.iter().sum();
    let m = x.iter().zip(w).map(|(v, w)| v * w).sum::<f64>() / sw;
    (m, sw)
}

fn weighted_sum_sq(x: &[f64], w: &[f64], m: f64) -> f64 {
    x.iter().zip(w).map(|(v, w)| w * (v - m) * (v - m)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_close;

    fn whole(x: &[f64]) -> Segment<'_> {
        Segment { x, se: None }
    }

    /// Without errors the level test is Student's pooled t-test. Reference: scipy 1.16.3,
    /// `ttest_ind([1.0,1.02,1.05,0.95,0.98], [0.80,0.82,0.85,0.79,0.77])`:
    /// t = 8.891975421173646, p = 2.024977032933363e-05.
    #[test]
    fn without_errors_the_level_test_is_student_s() {
        let x = [1.00, 1.02, 1.05, 0.95, 0.98, 0.80, 0.82, 0.85, 0.79, 0.77];
        let t = split_test(whole(&x), 5, 1, 1, 0.95);
        assert_close(t.p_level, 2.024977032933363e-05, 1e-9);
        assert_eq!((t.before.n, t.after.n), (5, 5));
        assert_close(t.before.mean, 1.0, 1e-12);
        assert_close(t.after.mean, 0.806, 1e-12);
        // Mann–Whitney 5 against 5, all apart: exact p = 2/252.
        assert_close(t.p_rank, 2.0 / 252.0, 1e-12);
        assert_close(t.p, 2.0 / 252.0, 1e-12);
    }

    #[test]
    fn the_search_s_choices_multiply_p_and_short_segments_are_never_changes() {
        let x = [1.00, 1.02, 1.05, 0.95, 0.98, 0.80, 0.82, 0.85, 0.79, 0.77];
        let t = split_test(whole(&x), 5, 10, 1, 0.95);
        assert_close(t.p, 20.0 / 252.0, 1e-12);
        assert_eq!(split_test(whole(&x), 5, 1, 6, 0.95).p, 1.0);
    }

    /// One slow run is one rank: the levels differ, the ranks do not.
    #[test]
    fn a_spike_is_not_a_level() {
        let mut x = vec![1.0, 1.01, 0.99, 1.02, 0.98, 1.0, 1.01, 0.99, 1.0, 1.0];
        x.extend([3.0, 1.0, 1.01]);
        let t = split_test(whole(&x), 10, 1, 3, 0.95);
        // scipy 1.16.3 `mannwhitneyu` of the two sides: U = 7, p = 0.18896562967233332.
        assert_close(t.p_rank, 0.18896562967233332, 1e-9);
        assert!(t.p_level < t.p_rank / 3.0, "the levels see more: {t:?}");
        assert_eq!(t.p, t.p_rank);
    }

    /// Points measured imprecisely weigh less: a run of slow points each with a wide
    /// interval moves the weighted level less than the plain one.
    #[test]
    fn an_imprecise_point_counts_less() {
        let x = [1.0, 1.01, 0.99, 1.0, 1.0, 1.3, 1.0];
        let se = [0.005, 0.005, 0.005, 0.005, 0.005, 0.08, 0.005];
        let seg = Segment {
            x: &x,
            se: Some(&se),
        };
        let weighted = split_test(seg, 4, 1, 1, 0.95);
        let plain = split_test(whole(&x), 4, 1, 1, 0.95);
        assert!(weighted.after.mean < plain.after.mean);
        assert_close(plain.after.mean, 1.1, 1e-12);
        // Equal errors weigh alike: the plain mean again.
        let same = [0.01; 7];
        let equal = Segment {
            x: &x,
            se: Some(&same),
        };
        assert_close(split_test(equal, 4, 1, 1, 0.95).after.mean, 1.1, 1e-12);
    }
}
