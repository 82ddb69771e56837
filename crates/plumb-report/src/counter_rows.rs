//! The counters table: each counted event per operation, mean ± error, for the
//! benchmarks that carry counters (`plumb run --counters`).

use crate::rows::Table;
use crate::units::format_value;
use plumb_model::{Benchmark, Metric, ResultDocument, Source};

fn is_counter(source: Source) -> bool {
    matches!(
        source,
        Source::HardwareCounter | Source::SoftwareCounter | Source::Simulated
    )
}

/// The counted metrics of any benchmark, in the model's order.
pub(crate) fn counted(doc: &ResultDocument) -> Vec<&'static Metric> {
    Metric::KNOWN
        .iter()
        .filter(|m| {
            doc.benchmarks
                .iter()
                .any(|b| b.metrics.get(*m).is_some_and(|i| is_counter(i.source)))
        })
        .collect()
}

/// `None` when no benchmark was counted.
pub fn counter_table(doc: &ResultDocument) -> Option<Table> {
    let metrics = counted(doc);
    if metrics.is_empty() {
        return None;
    }
    let mut header = vec!["Benchmark"];
    header.extend(metrics.iter().map(|m| m.label()));
    let mut numeric = vec![true; header.len()];
    numeric[0] = false;
    let rows = doc
        .benchmarks
        .iter()
        .map(|b| {
            let mut cells = vec![b.name.clone()];
            cells.extend(metrics.iter().map(|m| cell(b, m)));
            cells
        })
        .collect();
    Some(Table {
        header,
        rows,
        numeric,
    })
}

/// "3.654 ms ± 0.120 ms", or "-" when the benchmark does not have it.
fn cell(b: &Benchmark, m: &Metric) -> String {
    let (Some(info), Some(stats)) = (b.metrics.get(m), b.stats(m)) else {
        return "-".into();
    };
    let mean = format_value(info.unit, stats.summary.mean);
    match stats.error {
        Some(e) if e.is_finite() => format!("{mean} ± {}", format_value(info.unit, e)),
        _ => mean,
    }
}

/// The line above the table: what the figures are, and where they come from.
pub fn counter_caption(doc: &ResultDocument) -> String {
    let sources: Vec<&str> = [
        (Source::HardwareCounter, "the CPU's counters"),
        (Source::SoftwareCounter, "the kernel's software events"),
        (Source::Simulated, "simulation"),
    ]
    .into_iter()
    .filter(|(s, _)| {
        doc.benchmarks
            .iter()
            .any(|b| b.metrics.values().any(|i| i.source == *s))
    })
    .map(|(_, what)| what)
    .collect();
    format!(
        "Counters per operation, mean ± error at {} ({}):",
        doc.settings.confidence,
        sources.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::MetricInfo;

    #[test]
    fn no_counters_no_table_and_counted_metrics_get_a_column_each() {
        let mut doc = crate::fixture::document();
        assert!(counter_table(&doc).is_none());
        let b: &mut Benchmark = &mut doc.benchmarks[0];
        b.metrics.insert(
            Metric::PageFaults,
            MetricInfo::known(&Metric::PageFaults, Source::SoftwareCounter),
        );
        let t = counter_table(&doc).unwrap();
        assert_eq!(t.header, vec!["Benchmark", "Faults"]);
        assert_eq!(t.rows[1][1], "-", "the other benchmark was not counted");
        assert!(counter_caption(&doc).contains("the kernel's software events"));
    }
}
