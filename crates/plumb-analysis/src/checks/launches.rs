//! The launches check: do fresh processes of one benchmark differ more than its samples (ANOVA)?
use super::{key, pct, sig4};
use plumb_model::{Benchmark, Diagnostic, DiagnosticCode, Metric, Severity};
use plumb_stats::one_way_anova;

/// Between-launch against within-launch variation, when a benchmark ran in several fresh
/// processes: code layout and address-space randomisation change per process, not per
/// sample, and can move a result more than its own noise.
pub fn check(b: &Benchmark, metric: &Metric, level: f64) -> Option<Diagnostic> {
    let counts = &b.function.as_ref()?.launch_sample_counts;
    if counts.len() < 2 {
        return None;
    }
    let times = b.per_op(metric);
    let mut groups: Vec<Vec<f64>> = Vec::new();
    let mut start = 0;
    for &n in counts {
        groups.push(times.get(start..start + n)?.to_vec());
        start += n;
    }
    let refs: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
    let a = one_way_anova(&refs).ok()?;
    let means: Vec<f64> = groups
        .iter()
        .map(|g| g.iter().sum::<f64>() / g.len() as f64)
        .collect();
    let grand = means.iter().sum::<f64>() / means.len() as f64;
    let spread = a.between_sd / grand;
    let differ = a.p < 1.0 - level;
    Some(
        Diagnostic::new(
            DiagnosticCode::Launches,
            if differ { Severity::Warning } else { Severity::Info },
            if differ {
                format!(
                    "the {} launches differ (one-way ANOVA F={:.1}, p={:.1e}): launch means spread {} while samples within a launch spread {}; the process itself (layout, ASLR) moves this result, and the Error is computed from launch means",
                    counts.len(), a.f, a.p, pct(spread), pct(a.within_sd / grand)
                )
            } else {
                format!(
                    "{} launches agree (one-way ANOVA p={:.2}): launch means spread {}, samples within a launch {}",
                    counts.len(), a.p, pct(spread), pct(a.within_sd / grand)
                )
            },
        )
        .evidence("launches", counts.len())
        .evidence(&key(b, metric, "between_launch_sd"), sig4(a.between_sd))
        .evidence(&key(b, metric, "within_launch_sd"), sig4(a.within_sd))
        .evidence("anova_f", sig4(a.f))
        .evidence("anova_p", a.p)
        .advice(if differ { "compare results with --launches on both sides; more launches narrow the interval" } else { "" }),
    )
}
