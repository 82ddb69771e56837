use super::{key, sig4};
use plumb_model::{Benchmark, Diagnostic, DiagnosticCode, Metric, Severity};
use plumb_stats::{mvalue_fixed_bins, Modality};

/// mValue needs enough samples to draw a histogram worth reading.
pub const MIN_SAMPLES: usize = 20;

pub fn check(b: &Benchmark, metric: &Metric, times: &[f64]) -> Option<Diagnostic> {
    if times.len() < MIN_SAMPLES {
        return None;
    }
    let m = mvalue_fixed_bins(times).ok()?;
    if m.mvalue <= Modality::BIMODAL {
        return None;
    }
    // BenchmarkDotNet's words for its thresholds.
    let what = if m.mvalue > Modality::MULTIMODAL {
        "multimodal"
    } else {
        "bimodal"
    };
    Some(
        Diagnostic::new(
            DiagnosticCode::Multimodal,
            Severity::Warning,
            format!(
                "the distribution is {what} (mValue {:.2}, threshold {}): the mean describes no run",
                m.mvalue,
                Modality::BIMODAL
            ),
        )
        .evidence("mvalue", sig4(m.mvalue))
        .evidence(&key(b, metric, "bin_width"), sig4(m.bin_width))
        .advice("look at the samples in run order: two code paths, caches hot or cold, CPU frequency steps, or two cores of different speed"),
    )
}
