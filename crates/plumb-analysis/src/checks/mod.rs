//! Enemy checks on one benchmark. Each looks at the samples, and when it finds something
//! it returns a diagnostic: the finding with the figures that show it (its words
//! are plumb-report's `finding`).

pub mod cliffs;
mod counters;
mod drift;
mod failures;
mod launches;
mod modality;
mod outliers;
mod precision;
pub mod sensitivity;

use crate::AnalysisConfig;
use plumb_model::{Amount, Benchmark, Diagnostic, Metric};

/// Runs every check on `cfg.metric`, whose analysed per-op values are `values`.
pub fn run_all(b: &Benchmark, values: &[f64], cfg: &AnalysisConfig) -> Vec<Diagnostic> {
    let m = &cfg.metric;
    let level = cfg.level;
    let mut out = Vec::new();
    out.extend(failures::check(b));
    if b.summary_only() {
        return out; // a harness's summary: no samples to check (the import says so)
    }
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

/// `value` of `metric` in `b` with the metric's unit.
pub(crate) fn amount(b: &Benchmark, metric: &Metric, value: f64) -> Amount {
    Amount::new(value, plumb_model::format::unit_of(b, metric))
}
