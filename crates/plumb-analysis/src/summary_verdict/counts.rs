//! Verdicts on a simulator's counts alone (gungraun's callgrind, imported): exact for the
//! one run it simulated, so there is no interval to take and the ratio decides — beyond
//! the SESOI more or fewer, within it equivalent. Wall time asked of such a pair is
//! answered in instructions, which is what the harness measures.

use crate::called::by_interval;
use plumb_model::{Benchmark, Comparison, Metric, SummaryBasis, VerdictReason};
use plumb_stats::Interval;

/// Judges `c` when both sides have only simulated counts of the metric asked (of
/// instructions, when wall time is asked); false when they do not.
pub(super) fn judge(
    c: &mut Comparison,
    base: &Benchmark,
    cand: &Benchmark,
    metric: &Metric,
) -> bool {
    let counted = match metric {
        Metric::WallTime => Metric::Instructions,
        other => other.clone(),
    };
    let (Some(b), Some(n)) = (counted_only(base, &counted), counted_only(cand, &counted)) else {
        return false;
    };
    c.metric = counted;
    c.from_summaries = Some(SummaryBasis::SimulatedCounts);
    if b <= 0.0 {
        c.reason = VerdictReason::BaselineNearZero {
            baseline_mean: b,
            launches: 0,
        };
        return true;
    }
    c.ratio = n / b;
    let exact = Interval {
        lo: c.ratio,
        hi: c.ratio,
    };
    c.ratio_ci = Some(exact);
    (c.verdict, c.reason) = by_interval(exact, c.sesoi.get(), false);
    true
}

/// `metric` per operation counted by a simulator, for a benchmark that has nothing else:
/// no samples and no summary.
pub(super) fn counted_only(b: &Benchmark, metric: &Metric) -> Option<f64> {
    if !b.samples.is_empty() || !b.reported.is_empty() {
        return None;
    }
    let per_op = b.simulated.as_ref()?.per_op(metric);
    (per_op.len() == 1).then(|| per_op[0])
}
