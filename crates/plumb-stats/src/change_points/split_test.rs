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
//! - The level test's p is corrected for the search (`search.rs`): the energy statistic
//!   picked the most different split, so its raw p is not a p-value. It is the change's p,
//!   the one held across series. The rank test only confirms, at its raw p: both must
//!   reject (an intersection–union test, whose level is that of the stricter of the two, so
//!   the corrected level test alone bounds the false alarms).
use super::search::{newest_corrected, search_corrected, MIN_SEGMENT};
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
    /// The change's p: p_level corrected for the search; 1 when a side has fewer than the
    /// minimum segment's points.
    pub p: f64,
}

/// A segment of the series with the standard errors of its points (None: all alike).
#[derive(Clone, Copy)]
pub(super) struct Segment<'a> {
    pub x: &'a [f64],
    pub se: Option<&'a [f64]>,
}

impl SplitTest {
    /// Both tests reject: the levels at `max_p` (corrected), the ranks at `rank_p` (raw).
    pub fn passes(&self, max_p: f64, rank_p: f64) -> bool {
        self.p <= max_p && self.p_rank <= rank_p
    }
}

impl<'a> Segment<'a> {
    pub(super) fn range(&self, from: usize, to: usize) -> Segment<'a> {
        Segment {
            x: &self.x[from..to],
            se: self.se.map(|s| &s[from..to]),
        }
    }
}

/// Which splits a split was searched for among: every split of the segment, or only those
/// that leave the newest 3 to 10 points on the right (the recent-change test).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Searched {
    Whole,
    Newest,
}

/// The test of a split again without the shorter level's point farthest from the other
/// level's mean, corrected for the same search: a change that rests on one point — a
/// spike with two runs beside it that the search picked for being high — is not a level. Measured: with it, no ×3 spike on the newest of 1,000 series made a
/// change point; without it, 1.5 % did, at the spike with the two runs before it.
pub(super) fn without_one(
    seg: Segment,
    split: usize,
    confidence: f64,
    searched: Searched,
) -> SplitTest {
    let n = seg.x.len();
    let (short, other) = if split <= n - split {
        (0..split, split..n)
    } else {
        (split..n, 0..split)
    };
    let other_mean = seg.x[other.clone()].iter().sum::<f64>() / other.len().max(1) as f64;
    let far = short
        .clone()
        .max_by(|&a, &b| {
            (seg.x[a] - other_mean)
                .abs()
                .total_cmp(&(seg.x[b] - other_mean).abs())
        })
        .unwrap_or(0);
    let keep = |v: &[f64]| -> Vec<f64> {
        v.iter()
            .enumerate()
            .filter(|(i, _)| *i != far)
            .map(|(_, x)| *x)
            .collect()
    };
    let x = keep(seg.x);
    let se = seg.se.map(keep);
    let reduced = Segment {
        x: &x,
        se: se.as_deref(),
    };
    let split = if far < split { split - 1 } else { split };
    split_test_with(reduced, split, confidence, searched, MIN_SEGMENT)
}

/// Tests [0, split) against [split, len) of `seg`, the split having been searched for over
/// all of `seg`; levels' intervals at `confidence`.
pub(super) fn split_test(seg: Segment, split: usize, confidence: f64) -> SplitTest {
    split_test_among(seg, split, confidence, Searched::Whole)
}

/// As `split_test`, the split searched for among `searched`.
pub(super) fn split_test_among(
    seg: Segment,
    split: usize,
    confidence: f64,
    searched: Searched,
) -> SplitTest {
    split_test_with(seg, split, confidence, searched, MIN_SEGMENT)
}

/// The test, a side shorter than `min_len` giving p = 1.
fn split_test_with(
    seg: Segment,
    split: usize,
    confidence: f64,
    searched: Searched,
    min_len: usize,
) -> SplitTest {
    let (left, right) = (seg.range(0, split), seg.range(split, seg.x.len()));
    let (before, after, p_level) = level_test(left, right, confidence);
    let short = left.x.len() < min_len || right.x.len() < min_len;
    let p_rank = mann_whitney_u(left.x, right.x).map_or(1.0, |m| m.p);
    let p = if short {
        1.0
    } else {
        match searched {
            Searched::Whole => search_corrected(p_level, seg.x.len()),
            Searched::Newest => newest_corrected(p_level, seg.x.len()),
        }
    };
    SplitTest {
        before,
        after,
        p_level,
        p_rank,
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
    let usable = weighable(left, right, tau2);
    let (wl, wr) = (weights(left, tau2, usable), weights(right, tau2, usable));
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

/// Each point's weight, 1/(τ² + se²); all 1 when either side has a point that would weigh
/// infinitely (no between-run variance and an error of 0) or carries no errors, so both
/// sides are always weighed on one scale.
fn weights(seg: Segment, tau2: f64, usable: bool) -> Vec<f64> {
    match seg.se {
        Some(se) if usable => se.iter().map(|s| 1.0 / (tau2 + s * s)).collect(),
        _ => vec![1.0; seg.x.len()],
    }
}

/// Whether both sides can be weighed by their errors.
fn weighable(left: Segment, right: Segment, tau2: f64) -> bool {
    match (left.se, right.se) {
        (Some(a), Some(b)) => a.iter().chain(b).all(|s| tau2 + s * s > 0.0),
        _ => false,
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
        let t = split_test(whole(&x), 5, 0.95);
        assert_close(t.p_level, 2.024977032933363e-05, 1e-9);
        assert_eq!((t.before.n, t.after.n), (5, 5));
        assert_close(t.before.mean, 1.0, 1e-12);
        assert_close(t.after.mean, 0.806, 1e-12);
        // Mann–Whitney 5 against 5, all apart: exact p = 2/252.
        assert_close(t.p_rank, 2.0 / 252.0, 1e-12);
        assert!(t.passes(0.01, 0.01) && !t.passes(0.01, 0.005));
    }

    #[test]
    fn the_level_s_p_is_corrected_for_the_search_and_short_segments_are_never_changes() {
        let x: Vec<f64> = (0..40)
            .map(|i| f64::from(i % 7) + if i < 20 { 0.0 } else { 2.0 })
            .collect();
        let t = split_test(whole(&x), 20, 0.95);
        assert_eq!(t.p, search_corrected(t.p_level, 40));
        assert!(t.p > 3.0 * t.p_level);
        let y = [1.00, 1.02, 1.05, 0.95, 0.98, 0.80, 0.82, 0.85, 0.79, 0.77];
        assert_eq!(split_test(whole(&y), 2, 0.95).p, 1.0);
        assert_eq!(split_test(whole(&y), 8, 0.95).p, 1.0);
    }

    /// One slow run is one rank: the levels differ, the ranks do not.
    #[test]
    fn a_spike_is_not_a_level() {
        let mut x = vec![1.0, 1.01, 0.99, 1.02, 0.98, 1.0, 1.01, 0.99, 1.0, 1.0];
        x.extend([3.0, 1.0, 1.01]);
        let t = split_test(whole(&x), 10, 0.95);
        // scipy 1.16.3 `mannwhitneyu` of the two sides: U = 7, p = 0.18896562967233332.
        assert_close(t.p_rank, 0.18896562967233332, 1e-9);
        assert!(t.p_level < t.p_rank / 3.0, "the levels see more: {t:?}");
        assert!(!t.passes(1.0, 0.1));
    }

    /// With errors the level test is a weighted least-squares fit of a step, its scale
    /// estimated. Reference: statsmodels 0.15.0 `WLS(x, [1, step], weights=1/(τ²+se²))`
    /// with τ² = SS/(n−2) − mean(se²) = 0.0055088 worked by hand: levels 0.9979821473317738
    /// and 1.0827952293171386, p of the step 0.054702362969268614, the 95 % intervals of
    /// the levels [0.93826011, 1.05770418] and [1.01955176, 1.14603869].
    #[test]
    fn with_errors_the_level_test_is_weighted_least_squares() {
        let x = [1.0, 1.02, 0.97, 1.01, 0.99, 1.3, 1.05, 1.08, 1.04, 1.06];
        let se = [
            0.005, 0.006, 0.004, 0.005, 0.005, 0.08, 0.006, 0.005, 0.007, 0.005,
        ];
        let seg = Segment {
            x: &x,
            se: Some(&se),
        };
        let t = split_test(seg, 5, 0.95);
        assert_close(t.before.mean, 0.9979821473317738, 1e-12);
        assert_close(t.after.mean, 1.0827952293171386, 1e-12);
        assert_close(t.p_level, 0.054702362969268614, 1e-9);
        assert_close(t.before.interval.lo, 0.93826011, 1e-8);
        assert_close(t.before.interval.hi, 1.05770418, 1e-8);
        assert_close(t.after.interval.lo, 1.01955176, 1e-8);
        assert_close(t.after.interval.hi, 1.14603869, 1e-8);
    }

    /// Without its spike, a three-point level is two points: no level; a level of five
    /// keeps its four and holds.
    #[test]
    fn a_level_that_rests_on_one_point_does_not_hold_without_it() {
        let mut x: Vec<f64> = (0..40).map(|i| 100.0 + f64::from(i % 5) * 0.2).collect();
        x.extend([100.9, 101.0, 300.0]);
        let spiked = without_one(whole(&x), 40, 0.95, Searched::Whole);
        assert_eq!(spiked.p, 1.0);
        x.truncate(40);
        x.extend([105.0, 105.2, 104.9, 105.1, 130.0]);
        let step = without_one(whole(&x), 40, 0.95, Searched::Whole);
        assert_eq!(step.after.n, 4);
        assert!(step.p < 1e-6, "{step:?}");
        assert_eq!(step.p, search_corrected(step.p_level, 44));
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
        let weighted = split_test(seg, 4, 0.95);
        let plain = split_test(whole(&x), 4, 0.95);
        assert!(weighted.after.mean < plain.after.mean);
        assert_close(plain.after.mean, 1.1, 1e-12);
        // Equal errors weigh alike: the plain mean again.
        let same = [0.01; 7];
        let equal = Segment {
            x: &x,
            se: Some(&same),
        };
        assert_close(split_test(equal, 4, 0.95).after.mean, 1.1, 1e-12);
    }
}
