//! The launches check: do fresh processes of one benchmark differ more than its samples (ANOVA)?
use super::amount;
use plumb_model::finding::Launches;
use plumb_model::quantity::Confidence;
use plumb_model::{Benchmark, Diagnostic, Metric, Severity};
use plumb_stats::one_way_anova;

/// Between-launch against within-launch variation, when a benchmark ran in several fresh
/// processes: code layout and address-space randomisation change per process, not per
/// sample, and can move a result more than its own noise.
pub fn check(b: &Benchmark, metric: &Metric, level: Confidence) -> Option<Diagnostic> {
    let counts = &b.function()?.launch_sample_counts;
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
    let finding = Launches {
        launches: counts.len(),
        level,
        f: a.f,
        p: a.p,
        mean: amount(b, metric, grand),
        between_sd: amount(b, metric, a.between_sd),
        within_sd: amount(b, metric, a.within_sd),
    };
    // Information either way: the Error is computed from the launch means
    // (`replicates.rs`), so launches that differ widen the interval rather than make it
    // wrong. The finding says why it is as wide as it is.
    Some(Diagnostic::new(Severity::Info, finding))
}
