//! Where the modes of a sample are, and what share of it each holds: the peaks of a
//! Gaussian kernel density estimate, split at the lowest point between two peaks.
//!
//! The bandwidth is Silverman's rule with a robust spread, 0.9·min(σ, 1.4826·MAD)·n^(−1/5):
//! the median absolute deviation of a mixture stays near the major mode's width while
//! that mode holds more than half the sample (the interquartile range does only above
//! three quarters), so a minor mode is not smoothed into the major one. Ties are spread
//! first (`ties.rs`), so that a count's lattice is not a mode per value.

use crate::summary::{mad_of_sorted, median_of_sorted, percentile_of_sorted};
use crate::ties::sorted_and_spread;
use crate::{check_finite, variance, StatsError};

/// One mode: the median of the values between its neighbouring valleys, their share of
/// the sample, and the range they cover.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mode {
    pub location: f64,
    pub share: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Two peaks are one mode unless the density between them falls below this fraction of
/// the lower peak.
const VALLEY: f64 = 0.2;
/// A peak holding fewer of the values than this share, or than `MIN_COUNT` of them, is a
/// bump of the tail, not a mode.
const MIN_SHARE: f64 = 0.05;
const MIN_COUNT: usize = 5;
/// See `stands_out`.
const VALLEY_AT_OWN_SCALE: f64 = 0.5;

/// The modes of a sample of at least 4 values, in increasing location.
pub fn modes(xs: &[f64]) -> Result<Vec<Mode>, StatsError> {
    check_finite(xs, 4)?;
    let (s, spread, _) = sorted_and_spread(xs);
    Ok(modes_of_sorted(&spread, &s))
}

/// The modes of `spread` (sorted, ties spread), described by the values of `original`
/// at the same ranks.
pub(crate) fn modes_of_sorted(spread: &[f64], original: &[f64]) -> Vec<Mode> {
    let n = spread.len();
    let h = bandwidth(spread);
    if h.is_nan() || h <= 0.0 || spread[n - 1] == spread[0] {
        return vec![mode_of(original, n)];
    }
    let density = Density::of(spread, h);
    let mut peaks: Vec<usize> = (1..density.d.len() - 1)
        .filter(|&i| density.d[i] > density.d[i - 1] && density.d[i] >= density.d[i + 1])
        .collect();
    loop {
        let cuts: Vec<usize> = peaks
            .windows(2)
            .map(|w| density.lowest(w[0], w[1]))
            .collect();
        let ranges = density.split(spread, &cuts);
        match pair_to_merge(spread, &ranges, &cuts, &peaks, &density) {
            // The lower of the two peaks goes; the lowest point between the survivors is
            // found again on the next pass.
            Some(i) => {
                let lower = if density.d[peaks[i]] < density.d[peaks[i + 1]] {
                    i
                } else {
                    i + 1
                };
                peaks.remove(lower);
            }
            None => {
                return ranges
                    .iter()
                    .map(|r| mode_of(&original[r.clone()], n))
                    .collect()
            }
        }
    }
}

fn mode_of(g: &[f64], n: usize) -> Mode {
    debug_assert!(
        !g.is_empty(),
        "empty groups are merged before modes are named"
    );
    Mode {
        location: median_of_sorted(g),
        share: g.len() as f64 / n as f64,
        lo: g[0],
        hi: g[g.len() - 1],
    }
}

fn bandwidth(s: &[f64]) -> f64 {
    let sd = variance(s).sqrt();
    let mad = mad_of_sorted(s);
    let spread = if mad > 0.0 { sd.min(mad) } else { sd };
    0.9 * spread * (s.len() as f64).powf(-0.2)
}

/// The density on a grid from 3h below the least value to 3h above the largest, with a
/// step of at most h/4 (so that one far outlier does not squeeze a mode into a cell) up
/// to `MAX_GRID` points: values binned linearly onto the grid, then smoothed with the
/// kernel cut at 4h. Densities are in values (each value adds 1 at its own point).
struct Density {
    start: f64,
    step: f64,
    d: Vec<f64>,
}

const MIN_GRID: usize = 512;
const MAX_GRID: usize = 1 << 16;

impl Density {
    fn of(s: &[f64], h: f64) -> Density {
        let start = s[0] - 3.0 * h;
        let span = s[s.len() - 1] + 3.0 * h - start;
        let points = ((span / (h / 4.0)).ceil() as usize).clamp(MIN_GRID, MAX_GRID);
        let step = span / (points - 1) as f64;
        let mut weight = vec![0.0; points];
        for &x in s {
            let pos = (x - start) / step;
            let i = (pos.floor() as usize).min(points - 2);
            let frac = pos - i as f64;
            weight[i] += 1.0 - frac;
            weight[i + 1] += frac;
        }
        let reach = ((4.0 * h / step).ceil() as usize).min(points);
        let kernel: Vec<f64> = (0..=reach)
            .map(|k| (-0.5 * (k as f64 * step / h).powi(2)).exp())
            .collect();
        let d = (0..points)
            .map(|g| {
                let from = g.saturating_sub(reach);
                let to = (g + reach).min(points - 1);
                (from..=to).map(|j| weight[j] * kernel[g.abs_diff(j)]).sum()
            })
            .collect();
        Density { start, step, d }
    }

    fn x(&self, index: usize) -> f64 {
        self.start + index as f64 * self.step
    }

    /// The grid index of the lowest density between two grid indices.
    fn lowest(&self, a: usize, b: usize) -> usize {
        (a..=b)
            .min_by(|&i, &j| self.d[i].total_cmp(&self.d[j]))
            .expect("non-empty")
    }

    /// Index ranges of `s` between the cuts.
    fn split(&self, s: &[f64], cuts: &[usize]) -> Vec<std::ops::Range<usize>> {
        let mut ranges = Vec::with_capacity(cuts.len() + 1);
        let mut from = 0;
        for &c in cuts {
            let to = s.partition_point(|&x| x < self.x(c));
            ranges.push(from..to);
            from = to;
        }
        ranges.push(from..s.len());
        ranges
    }
}

/// Which two neighbouring peaks `i` and `i + 1` to merge next, if any: a group too small
/// to be a mode joins the neighbour across the shallower valley; else the pair with the
/// shallowest valley above `VALLEY`; else the first pair where one group does not stand
/// out from the valley at its own scale.
fn pair_to_merge(
    s: &[f64],
    ranges: &[std::ops::Range<usize>],
    cuts: &[usize],
    peaks: &[usize],
    density: &Density,
) -> Option<usize> {
    let d = &density.d;
    if cuts.is_empty() {
        return None;
    }
    let n = s.len();
    let small =
        |r: &std::ops::Range<usize>| r.len() < MIN_COUNT || (r.len() as f64) < MIN_SHARE * n as f64;
    if let Some(g) = ranges.iter().position(small) {
        return Some(match g {
            0 => 0,
            g if g == cuts.len() => g - 1,
            g if d[cuts[g - 1]] >= d[cuts[g]] => g - 1,
            g => g,
        });
    }
    let depth = |i: usize| d[cuts[i]] / d[peaks[i]].min(d[peaks[i + 1]]);
    if let Some(i) = (0..cuts.len())
        .filter(|&i| depth(i) > VALLEY)
        .max_by(|&a, &b| depth(a).total_cmp(&depth(b)))
    {
        return Some(i);
    }
    (0..cuts.len()).find(|&i| {
        let at = density.x(cuts[i]);
        !stands_out(s, &s[ranges[i].clone()], at) || !stands_out(s, &s[ranges[i + 1].clone()], at)
    })
}

/// Whether a group is a mode seen at its own scale: the values in a window as wide as its
/// interquartile range, centred on the valley beside it, must be fewer than
/// `VALLEY_AT_OWN_SCALE` × those inside its interquartile range (half the group). The
/// density's valley is measured at the bandwidth of the major mode; a smeared tail or the
/// sparse far end of a heavy tail has a deep valley at that scale but none at its own.
fn stands_out(all: &[f64], group: &[f64], valley: f64) -> bool {
    let (q1, q3) = (
        percentile_of_sorted(group, 25.0),
        percentile_of_sorted(group, 75.0),
    );
    let within = |lo: f64, hi: f64, v: &[f64]| {
        v.partition_point(|&x| x <= hi) - v.partition_point(|&x| x < lo)
    };
    let inside = within(q1, q3, group) as f64;
    let half = (q3 - q1) / 2.0;
    let around_valley = within(valley - half, valley + half, all) as f64;
    around_valley < VALLEY_AT_OWN_SCALE * inside
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dip::tests::normalish;

    #[test]
    fn a_normal_sample_has_one_mode() {
        for seed in 1..20 {
            let m = modes(&normalish(300, 10.0, 1.0, seed)).unwrap();
            assert_eq!(m.len(), 1, "seed {seed}: {m:?}");
            assert!((m[0].location - 10.0).abs() < 0.2);
        }
    }

    #[test]
    fn a_70_30_mixture_is_named_by_location_and_share() {
        let xs = [normalish(70, 1.0, 0.05, 4), normalish(30, 2.0, 0.1, 5)].concat();
        let m = modes(&xs).unwrap();
        assert_eq!(m.len(), 2, "{m:?}");
        assert_eq!((m[0].share, m[1].share), (0.7, 0.3));
        assert!((m[0].location - 1.0).abs() < 0.03 && (m[1].location - 2.0).abs() < 0.05);
    }

    #[test]
    fn a_90_10_mixture_keeps_its_minor_mode_even_beside_a_far_outlier() {
        let xs = [normalish(90, 1.0, 0.05, 6), normalish(10, 1.5, 0.075, 7)].concat();
        let m = modes(&xs).unwrap();
        assert_eq!(m.len(), 2, "{m:?}");
        assert_eq!(m[1].share, 0.1);
        // One run 100× slower stretches the range 200-fold; the grid follows the bandwidth.
        let with_outlier = [xs, vec![100.0]].concat();
        let m = modes(&with_outlier).unwrap();
        assert_eq!(m.len(), 2, "{m:?}");
        assert!((m[1].location - 1.5).abs() < 0.1, "{m:?}");
    }

    /// A count whose values rise then fall (10/30/60/30/10 per thousand, n = 14,000): the
    /// bandwidth is far below the lattice's step, yet this is one mode.
    #[test]
    fn a_unimodal_lattice_of_many_values_is_one_mode() {
        let mut xs = Vec::new();
        for (v, k) in [
            (1.0, 1000),
            (2.0, 3000),
            (3.0, 6000),
            (4.0, 3000),
            (5.0, 1000),
        ] {
            xs.extend(std::iter::repeat_n(v, k));
        }
        let m = modes(&xs).unwrap();
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!((m[0].location, m[0].lo, m[0].hi), (3.0, 1.0, 5.0));
    }

    /// 94 % of runs tight around 10, 6 % smeared evenly from 11 to 30: a tail, not a mode.
    #[test]
    fn a_smeared_tail_is_not_a_mode() {
        let mut xs = normalish(940, 10.0, 0.1, 8);
        xs.extend((0..60).map(|i| 11.0 + 19.0 * f64::from(i) / 59.0));
        let m = modes(&xs).unwrap();
        assert_eq!(m.len(), 1, "{m:?}");
    }

    #[test]
    fn a_constant_sample_is_one_mode() {
        let one = Mode {
            location: 2.0,
            share: 1.0,
            lo: 2.0,
            hi: 2.0,
        };
        assert_eq!(modes(&[2.0; 8]).unwrap(), vec![one]);
    }
}
