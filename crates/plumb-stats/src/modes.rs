//! Where the modes of a sample are, and what share of it each holds: the peaks of a
//! Gaussian kernel density estimate, split at the lowest point between two peaks.
//!
//! The bandwidth is Silverman's rule with a robust spread, 0.9·min(σ, 1.4826·MAD)·n^(−1/5):
//! the median absolute deviation of a mixture stays near the major mode's width while
//! that mode holds more than half the sample (the interquartile range does only above
//! three quarters), so a minor mode is not smoothed into the major one.

use crate::summary::median_of_sorted;
use crate::{check_finite, sorted, variance, StatsError};

/// One mode: the median of the values between its neighbouring valleys, their share of
/// the sample, and the range they cover.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mode {
    pub location: f64,
    pub share: f64,
    pub lo: f64,
    pub hi: f64,
}

const GRID: usize = 512;
/// Two peaks are one mode unless the density between them falls below this fraction of
/// the lower peak.
const VALLEY: f64 = 0.2;
/// A peak holding fewer of the values than this share, or than `MIN_COUNT` of them, is a
/// bump of the tail, not a mode.
const MIN_SHARE: f64 = 0.05;
const MIN_COUNT: usize = 5;

/// The modes of a sample of at least 4 values, in increasing location.
pub fn modes(xs: &[f64]) -> Result<Vec<Mode>, StatsError> {
    check_finite(xs, 4)?;
    let s = sorted(xs);
    let (lo, hi) = (s[0], s[s.len() - 1]);
    let h = bandwidth(&s);
    if h <= 0.0 || hi == lo {
        return Ok(vec![whole(&s)]);
    }
    let (start, step, density) = kde(&s, h);
    let mut cuts = valleys(&density);
    loop {
        let groups = split(&s, &cuts, start, step);
        let Some(weakest) = weakest_cut(&groups, &cuts, &density, s.len()) else {
            return Ok(groups.iter().map(|g| mode_of(g, s.len())).collect());
        };
        cuts.remove(weakest);
    }
}

fn whole(s: &[f64]) -> Mode {
    mode_of(s, s.len())
}

fn mode_of(g: &[f64], n: usize) -> Mode {
    Mode {
        location: median_of_sorted(g),
        share: g.len() as f64 / n as f64,
        lo: g[0],
        hi: g[g.len() - 1],
    }
}

fn bandwidth(s: &[f64]) -> f64 {
    let sd = variance(s).sqrt();
    let median = median_of_sorted(s);
    let mut deviations: Vec<f64> = s.iter().map(|x| (x - median).abs()).collect();
    deviations.sort_by(f64::total_cmp);
    let mad = 1.4826 * median_of_sorted(&deviations);
    let spread = if mad > 0.0 { sd.min(mad) } else { sd };
    0.9 * spread * (s.len() as f64).powf(-0.2)
}

/// The density on a grid of `GRID` points from 3h below the least value to 3h above the
/// largest: values binned linearly onto the grid, then smoothed with the kernel cut at
/// 4h. Returns the grid's first point, its step and the densities.
fn kde(s: &[f64], h: f64) -> (f64, f64, Vec<f64>) {
    let start = s[0] - 3.0 * h;
    let step = (s[s.len() - 1] + 3.0 * h - start) / (GRID - 1) as f64;
    let mut weight = vec![0.0; GRID];
    for &x in s {
        let pos = (x - start) / step;
        let i = (pos.floor() as usize).min(GRID - 2);
        let frac = pos - i as f64;
        weight[i] += 1.0 - frac;
        weight[i + 1] += frac;
    }
    let reach = ((4.0 * h / step).ceil() as usize).min(GRID);
    let kernel: Vec<f64> = (0..=reach)
        .map(|k| (-0.5 * (k as f64 * step / h).powi(2)).exp())
        .collect();
    let density = (0..GRID)
        .map(|g| {
            let from = g.saturating_sub(reach);
            let to = (g + reach).min(GRID - 1);
            (from..=to).map(|j| weight[j] * kernel[g.abs_diff(j)]).sum()
        })
        .collect();
    (start, step, density)
}

/// Grid indices of the lowest point between each two neighbouring peaks.
fn valleys(density: &[f64]) -> Vec<usize> {
    let peaks: Vec<usize> = (1..density.len() - 1)
        .filter(|&i| density[i] > density[i - 1] && density[i] >= density[i + 1])
        .collect();
    peaks
        .windows(2)
        .map(|w| {
            (w[0]..=w[1])
                .min_by(|&a, &b| density[a].total_cmp(&density[b]))
                .expect("non-empty")
        })
        .collect()
}

fn split<'a>(s: &'a [f64], cuts: &[usize], start: f64, step: f64) -> Vec<&'a [f64]> {
    let mut groups = Vec::with_capacity(cuts.len() + 1);
    let mut from = 0;
    for &c in cuts {
        let at = start + c as f64 * step;
        let to = s.partition_point(|&x| x < at);
        groups.push(&s[from..to]);
        from = to;
    }
    groups.push(&s[from..]);
    groups
}

/// The cut to remove next, if any: one beside a group under `MIN_SHARE`, or else the one
/// whose valley is shallowest relative to the lower of its two neighbouring peaks, when
/// that is above `VALLEY`.
fn weakest_cut(groups: &[&[f64]], cuts: &[usize], density: &[f64], n: usize) -> Option<usize> {
    if let Some(g) = groups
        .iter()
        .position(|g| g.len() < MIN_COUNT || (g.len() as f64) < MIN_SHARE * n as f64)
    {
        return if cuts.is_empty() {
            None
        } else {
            Some(g.min(cuts.len() - 1))
        };
    }
    let bounds: Vec<usize> = std::iter::once(0)
        .chain(cuts.iter().copied())
        .chain(std::iter::once(density.len() - 1))
        .collect();
    let peak = |a: usize, b: usize| density[a..=b].iter().copied().fold(0.0, f64::max);
    (0..cuts.len())
        .map(|i| {
            let lower_peak = peak(bounds[i], bounds[i + 1]).min(peak(bounds[i + 1], bounds[i + 2]));
            (i, density[cuts[i]] / lower_peak)
        })
        .filter(|&(_, depth)| depth > VALLEY)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
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
    fn a_90_10_mixture_keeps_its_minor_mode() {
        let xs = [normalish(90, 1.0, 0.05, 6), normalish(10, 1.5, 0.075, 7)].concat();
        let m = modes(&xs).unwrap();
        assert_eq!(m.len(), 2, "{m:?}");
        assert_eq!(m[1].share, 0.1);
    }

    #[test]
    fn a_constant_sample_is_one_mode() {
        assert_eq!(
            modes(&[2.0; 8]).unwrap(),
            vec![Mode {
                location: 2.0,
                share: 1.0,
                lo: 2.0,
                hi: 2.0
            }]
        );
    }
}
