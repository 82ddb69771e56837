//! The outliers check: samples beyond Tukey's fences, and whether they were kept or dropped.
use super::amount;
use plumb_model::finding::Outliers;
use plumb_model::{Benchmark, Diagnostic, Metric, Severity};
use plumb_stats::tukey_outliers;

/// More than this fraction of samples outside the fences is a warning, not a note.
pub const MANY_OUTLIERS: f64 = 0.05;

pub fn check(b: &Benchmark, metric: &Metric) -> Option<Diagnostic> {
    let times = b.per_op(metric);
    let o = tukey_outliers(&times).ok()?;
    if o.count() == 0 {
        return None;
    }
    let frac = o.count() as f64 / times.len() as f64;
    let far = o.far_low + o.far_high;
    let severity = if frac > MANY_OUTLIERS || far > 0 {
        Severity::Warning
    } else {
        Severity::Info
    };
    let mut run_indices: Vec<usize> = o.low.iter().chain(&o.high).copied().collect();
    run_indices.sort_unstable();
    run_indices.truncate(10);
    let finding = Outliers {
        low: o.low.len(),
        high: o.high.len(),
        far,
        samples: times.len(),
        lower_fence: amount(b, metric, o.lower_fence),
        upper_fence: amount(b, metric, o.upper_fence),
        run_indices,
        dropped: (!b.excluded.is_empty()).then_some(b.excluded.len()),
    };
    Some(Diagnostic::new(severity, finding))
}
