//! The outliers check: samples beyond Tukey's fences, and whether they were kept or dropped.
use super::{key, pct, sig4};
use plumb_model::{Benchmark, Diagnostic, DiagnosticCode, Metric, Severity};
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
    let dropped = !b.excluded.is_empty();
    let handling = if dropped {
        format!(
            "{} upper outlier(s) dropped from the statistics on request (--drop-outliers); they remain in the raw samples",
            b.excluded.len()
        )
    } else {
        "kept in the statistics".to_string()
    };
    let far = o.far_low + o.far_high;
    let severity = if frac > MANY_OUTLIERS || far > 0 {
        Severity::Warning
    } else {
        Severity::Info
    };
    let mut runs: Vec<usize> = o.low.iter().chain(&o.high).copied().collect();
    runs.sort_unstable();
    runs.truncate(10);
    Some(
        Diagnostic::new(
            DiagnosticCode::Outliers,
            severity,
            format!(
                "{} outlier(s) ({} low, {} high, {far} beyond 3×IQR) = {} of runs; {handling}",
                o.count(),
                o.low.len(),
                o.high.len(),
                pct(frac)
            ),
        )
        .evidence("low", o.low.len())
        .evidence("high", o.high.len())
        .evidence("far", far)
        .evidence(&key(b, metric, "lower_fence"), sig4(o.lower_fence))
        .evidence(&key(b, metric, "upper_fence"), sig4(o.upper_fence))
        .evidence("run_indices_first_10", runs)
        .advice(if dropped {
            "dropping outliers hides real costs (GC, page faults, interrupts); report both ways"
        } else {
            "high outliers are usually interference (interrupts, other processes); see which runs they were"
        }),
    )
}
