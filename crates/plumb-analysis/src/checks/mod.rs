//! Enemy checks on one benchmark. Each looks at the samples, and when it finds something
//! it returns a diagnostic with the figures that show it and what to do.

pub mod cliffs;
mod counters;
mod drift;
mod failures;
mod launches;
mod modality;
mod outliers;
mod precision;

use crate::AnalysisConfig;
use plumb_model::{Benchmark, Diagnostic, Metric};

/// Runs every check on `cfg.metric`, whose analysed per-op values are `values`.
pub fn run_all(b: &Benchmark, values: &[f64], cfg: &AnalysisConfig) -> Vec<Diagnostic> {
    let m = &cfg.metric;
    let level = cfg.level.get();
    let mut out = Vec::new();
    out.extend(failures::check(b));
    out.extend(precision::sample_size(values, level));
    out.extend(precision::wide_ci(b, m, level));
    out.extend(precision::high_cv(b, m));
    out.extend(outliers::check(b, m));
    out.extend(modality::check(b, m, values));
    out.extend(drift::trend(values));
    out.extend(drift::cold_start(b, m));
    out.extend(launches::check(b, m, level));
    out.extend(counters::check(b));
    out
}

/// An evidence name with the metric's unit, as the figure is in it: `first_ns`,
/// `first_bytes`, or `first` for a count.
pub(crate) fn key(b: &Benchmark, metric: &Metric, name: &str) -> String {
    let suffix = b.metrics.get(metric).map_or("", |i| i.unit.name_suffix());
    format!("{name}{suffix}")
}

/// Round to 4 significant digits for evidence, so documents stay readable.
pub(crate) fn sig4(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let mag = 10f64.powi(3 - x.abs().log10().floor() as i32);
    (x * mag).round() / mag
}

pub(crate) fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}
