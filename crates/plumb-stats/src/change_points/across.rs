//! False alarms across many series analysed at once: a team with 100 benchmarks tests 100
//! series on every commit, so a per-series α of 0.001 would still raise a false alarm in one
//! commit of ten. The changes of every series are pooled and kept by Benjamini–Hochberg
//! (1995), which holds the expected share of false changes among those reported at α (and,
//! when no series changed at all, the chance of any false alarm).
use super::plumb::change_points;
use super::plumb::{merge, Change, ChangeParams, Series, SplitState};
use crate::StatsError;

/// Benjamini–Hochberg's threshold: the largest p₍ₖ₎ of `p` with p₍ₖ₎ ≤ k·q/m, where `m`
/// counts every hypothesis tested (at least `p.len()`: a test that found nothing counts
/// too); 0 when none passes, so nothing is kept.
pub fn benjamini_hochberg(p: &[f64], m: usize, q: f64) -> f64 {
    let mut sorted: Vec<f64> = p.iter().copied().filter(|v| !v.is_nan()).collect();
    sorted.sort_by(f64::total_cmp);
    let m = m.max(p.len()) as f64;
    let mut threshold = 0.0;
    for (k, v) in sorted.iter().enumerate() {
        if *v <= (k + 1) as f64 * q / m {
            threshold = *v;
        }
    }
    threshold
}

/// The change points of each series, `params.alpha` held across all of them: each series'
/// candidates are merged at α, then again at the Benjamini–Hochberg threshold of all the
/// changes kept (a hypothesis per candidate, one per series without any, and one per
/// series' recent-change test), until the threshold keeps every change left.
pub fn merge_across(items: &[(Series, &SplitState)], params: ChangeParams) -> Vec<Vec<Change>> {
    let candidates: Vec<Vec<usize>> = items.iter().map(|(_, s)| s.candidates()).collect();
    // A hypothesis per candidate (one per series without any), and each series' test of
    // a recent change.
    let hypotheses: usize = candidates.iter().map(|c| c.len().max(1) + 1).sum();
    let mut out: Vec<Vec<Change>> = items
        .iter()
        .zip(&candidates)
        .map(|((series, _), c)| merge(*series, c, params, params.alpha))
        .collect();
    // Each round only removes changes, so this ends; the bound is a guard.
    for _ in 0..hypotheses + 1 {
        let all: Vec<f64> = out.iter().flatten().map(|c| c.p()).collect();
        let t = benjamini_hochberg(&all, hypotheses, params.alpha);
        if all.iter().all(|p| *p <= t) {
            break;
        }
        for (k, ((series, _), c)) in items.iter().zip(&candidates).enumerate() {
            if out[k].iter().any(|c| c.p() > t) {
                out[k] = merge(*series, c, params, t);
            }
        }
    }
    out
}

/// The change points of every series in `series`, analysed from scratch, α held across all.
pub fn change_points_across(
    series: &[Series],
    params: ChangeParams,
) -> Result<Vec<Vec<Change>>, StatsError> {
    let states = series
        .iter()
        .map(|s| change_points(*s, params).map(|(_, state)| state))
        .collect::<Result<Vec<_>, _>>()?;
    let items: Vec<(Series, &SplitState)> = series.iter().copied().zip(&states).collect();
    Ok(merge_across(&items, params))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference: statsmodels 0.15.0 `multipletests(p, alpha=0.05, method="fdr_bh")` on
    /// these ten p-values rejects four (sorted: 0.001, 0.008, 0.012, 0.019 pass
    /// k·0.05/10 = 0.005, 0.010, 0.015, 0.020; 0.041 fails 0.025 and nothing later passes);
    /// with ten more p-values of 1 only 0.001 (≤ 0.05/20), with ninety more none.
    #[test]
    fn the_threshold_is_the_largest_p_under_its_line() {
        let p = [0.041, 0.001, 0.012, 0.6, 0.019, 0.008, 0.3, 0.9, 0.045, 0.2];
        assert_eq!(benjamini_hochberg(&p, 10, 0.05), 0.019);
        // Tests that found nothing still count.
        assert_eq!(benjamini_hochberg(&p, 20, 0.05), 0.001);
        assert_eq!(benjamini_hochberg(&p, 100, 0.05), 0.0);
        assert_eq!(benjamini_hochberg(&[0.5], 1, 0.05), 0.0);
    }
}
