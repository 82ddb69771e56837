//! Enemy checks on one benchmark. Each looks at the samples, and when it finds something
//! it returns a diagnostic with the figures that show it and what to do.

mod drift;
mod failures;
mod launches;
mod modality;
mod outliers;
mod precision;

use crate::AnalysisConfig;
use plumb_model::{Benchmark, Diagnostic};

pub fn run_all(b: &Benchmark, times: &[f64], cfg: &AnalysisConfig) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    out.extend(failures::check(b));
    out.extend(precision::sample_size(times, cfg.level.get()));
    out.extend(precision::wide_ci(b, cfg.level.get()));
    out.extend(precision::high_cv(b));
    out.extend(outliers::check(b));
    out.extend(modality::check(times));
    out.extend(drift::trend(times));
    out.extend(drift::cold_start(b));
    out.extend(launches::check(b, cfg.level.get()));
    out
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
