//! Precision checks: too few samples, too wide an interval, too high a coefficient of variation.
use super::amount;
use plumb_model::finding::{HighCv, TooFewSamples, WideCi};
use plumb_model::quantity::Confidence;
use plumb_model::{Benchmark, Diagnostic, Metric, Severity};

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

pub fn sample_size(times: &[f64], level: Confidence) -> Option<Diagnostic> {
    let n = times.len();
    if n >= MIN_SAMPLES {
        return None;
    }
    let spread = n >= 2;
    let finding = TooFewSamples {
        n,
        wanted: MIN_SAMPLES,
        level,
        t_multiplier: spread.then(|| t_multiplier(n, level.get())),
        t_multiplier_many: spread.then(|| t_multiplier(10_000, level.get())),
    };
    let severity = if spread {
        Severity::Warning
    } else {
        Severity::Error
    };
    Some(Diagnostic::new(severity, finding))
}

pub fn wide_ci(b: &Benchmark, metric: &Metric, level: Confidence) -> Option<Diagnostic> {
    let t = b.stats(metric)?;
    let error = t.error?;
    let relative_error = error / t.summary.mean.abs();
    (relative_error > MAX_RELATIVE_ERROR).then(|| {
        Diagnostic::new(
            Severity::Warning,
            WideCi {
                level,
                relative_error,
                error: amount(b, metric, error),
            },
        )
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
            Severity::Warning,
            HighCv {
                cv,
                std_dev: amount(b, metric, t.summary.std_dev),
                mad: amount(b, metric, t.summary.mad),
            },
        )
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
        let level = Confidence::DEFAULT;
        let five = sample_size(&[1.0; 5], level).unwrap();
        let plumb_model::Finding::TooFewSamples(f) = &five.finding else {
            panic!("{five:?}")
        };
        assert_eq!((f.n, five.severity), (5, Severity::Warning));
        assert!((f.t_multiplier.unwrap() - 8.610301581).abs() < 1e-6);
        assert_eq!(
            sample_size(&[1.0], level).unwrap().severity,
            Severity::Error
        );
        assert!(sample_size(&[1.0; 10], level).is_none());
    }
}
