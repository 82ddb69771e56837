//! The short-samples check: samples shorter than the clock needs (iter_batched with a
//! costly setup bounds the batch), so clock resolution and read cost are a visible part
//! of each figure.
use plumb_model::finding::ShortSamples;
use plumb_model::quantity::Duration;
use plumb_model::{Benchmark, Diagnostic, Metric, ProducerSettings, ResultDocument, Severity};

pub fn check(b: &Benchmark, doc: &ResultDocument) -> Option<Diagnostic> {
    let ProducerSettings::InProcess(settings) = &doc.settings.producer else {
        return None;
    };
    let mut walls: Vec<f64> = b
        .samples
        .values(&Metric::WallTime)?
        .iter()
        .map(|&ns| ns as f64)
        .collect();
    if walls.is_empty() {
        return None;
    }
    walls.sort_by(f64::total_cmp);
    let median = Duration::from_nanos_f64(plumb_stats::median_of_sorted(&walls));
    (median < settings.min_sample).then(|| {
        let finding = ShortSamples {
            median,
            min_sample: settings.min_sample,
        };
        Diagnostic::new(Severity::Warning, finding)
    })
}
