//! Precision checks: too few samples, too wide an interval, too high a coefficient of variation.
use super::{key, pct, sig4};
use plumb_model::{Benchmark, Diagnostic, DiagnosticCode, Metric, Severity};

/// Below this many samples the t multiplier, not the noise, dominates the interval.
pub const MIN_SAMPLES: usize = 10;
/// Error (CI half-width) above this fraction of the mean is reported.
pub const MAX_RELATIVE_ERROR: f64 = 0.05;
/// Coefficient of variation above this is reported.
pub const MAX_CV: f64 = 0.10;

/// The factor by which the interval's half-width exceeds σ/√n at this n and level.
fn t_multiplier(n: usize, level: f64) -> f64 {
    plumb_stats::t_quantile(1.0 - (1.0 - level) / 2.0, n as f64 - 1.0)
}

pub fn sample_size(times: &[f64], level: f64) -> Option<Diagnostic> {
    let n = times.len();
    if n >= MIN_SAMPLES {
        return None;
    }
    if n < 2 {
        return Some(
            Diagnostic::new(
                DiagnosticCode::TooFewSamples,
                Severity::Error,
                format!("{n} sample(s): no spread, no confidence interval, no comparison"),
            )
            .evidence("n", n)
            .advice("run at least --min-runs 10"),
        );
    }
    let t = t_multiplier(n, level);
    let t_inf = t_multiplier(10_000, level);
    Some(
        Diagnostic::new(
            DiagnosticCode::TooFewSamples,
            Severity::Warning,
            format!(
                "only {n} samples: at {} confidence the interval is {}× σ/√n, against {} with many samples",
                pct(level),
                sig4(t),
                sig4(t_inf)
            ),
        )
        .evidence("n", n)
        .evidence("t_multiplier", sig4(t))
        .advice(format!("use at least {MIN_SAMPLES} runs (--min-runs)")),
    )
}

pub fn wide_ci(b: &Benchmark, metric: &Metric, level: f64) -> Option<Diagnostic> {
    let t = b.stats(metric)?;
    let rel = t.error? / t.summary.mean.abs();
    (rel > MAX_RELATIVE_ERROR).then(|| {
        Diagnostic::new(
            DiagnosticCode::WideCi,
            Severity::Warning,
            format!(
                "the {} confidence interval is ±{} of the mean: differences smaller than that cannot be seen",
                pct(level),
                pct(rel)
            ),
        )
        .evidence("relative_error", sig4(rel))
        .evidence(&key(b, metric, "error"), sig4(t.error.unwrap_or(f64::NAN)))
        .advice("more runs narrow it by √n; a quieter machine narrows the spread itself")
    })
}

pub fn high_cv(b: &Benchmark, metric: &Metric) -> Option<Diagnostic> {
    let t = b.stats(metric)?;
    if t.summary.n < 2 {
        return None;
    }
    let cv = t.summary.cv();
    (cv > MAX_CV).then(|| {
        Diagnostic::new(
            DiagnosticCode::HighCv,
            Severity::Warning,
            format!("noisy: the standard deviation is {} of the mean", pct(cv)),
        )
        .evidence("cv", sig4(cv))
        .evidence(&key(b, metric, "std_dev"), sig4(t.summary.std_dev))
        .evidence(&key(b, metric, "mad"), sig4(t.summary.mad))
        .advice("see `plumb env` for noise sources; pin with taskset; close other programs")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // scipy: st.t.ppf(0.9995, 4) = 8.610301581, st.t.ppf(0.9995, 9999) ≈ 3.2915
    #[test]
    fn t_multiplier_matches_scipy() {
        assert!((t_multiplier(5, 0.999) - 8.610301581).abs() < 1e-6);
        assert!((t_multiplier(10_000, 0.999) - 3.2915).abs() < 1e-3);
    }

    #[test]
    fn few_samples_warn_and_enough_do_not() {
        assert!(sample_size(&[1.0; 5], 0.999).is_some());
        assert_eq!(
            sample_size(&[1.0], 0.999).unwrap().severity,
            Severity::Error
        );
        assert!(sample_size(&[1.0; 10], 0.999).is_none());
    }
}
