//! The summary table as formatted cells, shared by the terminal and Markdown renderers.

use crate::units::{format_value, TimeUnit};
use plumb_model::{Benchmark, Metric, ResultDocument, Unit};

pub struct Table {
    pub header: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
    /// Columns to right-align.
    pub numeric: Vec<bool>,
}

pub fn summary_table(doc: &ResultDocument) -> Table {
    let unit = doc
        .benchmarks
        .iter()
        .filter_map(|b| b.time().map(|t| t.summary.mean))
        .fold(f64::INFINITY, f64::min);
    let unit = TimeUnit::for_value(if unit.is_finite() { unit } else { 0.0 });
    let has = |m: &Metric| doc.benchmarks.iter().any(|b| b.stats(m).is_some());
    let has_rusage = has(&Metric::UserTime);
    let mut header = vec![
        "Benchmark",
        "Mean",
        "Error",
        "StdDev",
        "Median",
        "Min",
        "Max",
        "Ratio",
        "RatioSD",
    ];
    if has_rusage {
        header.extend(["User", "Sys", "MaxRSS"]);
    }
    let has_allocs = has(&Metric::Allocations);
    if has_allocs {
        header.extend(["Allocs/op", "Bytes/op"]);
    }
    header.push("N");
    let mut numeric = vec![true; header.len()];
    numeric[0] = false;
    let rows = doc
        .benchmarks
        .iter()
        .map(|b| row(doc, b, unit, has_rusage, has_allocs))
        .collect();
    Table {
        header,
        rows,
        numeric,
    }
}

fn row(
    doc: &ResultDocument,
    b: &Benchmark,
    unit: TimeUnit,
    has_rusage: bool,
    has_allocs: bool,
) -> Vec<String> {
    let dash = || "-".to_string();
    let name = if b.baseline && doc.benchmarks.len() > 1 {
        format!("{} (baseline)", b.name)
    } else {
        b.name.clone()
    };
    let mut cells = vec![name];
    match b.time() {
        Some(t) => {
            let s = &t.summary;
            cells.push(unit.format(s.mean));
            cells.push(t.error.map_or_else(dash, |e| unit.format(e)));
            cells.push(unit.format(s.std_dev));
            cells.push(unit.format(s.median));
            cells.push(unit.format(s.min));
            cells.push(unit.format(s.max));
        }
        None => cells.extend((0..6).map(|_| dash())),
    }
    let comparison = doc.comparisons.iter().find(|c| c.candidate == b.name);
    // Each group has its own baseline; a benchmark's ratio is its own comparison's.
    match (b.baseline, comparison) {
        (true, _) => cells.extend(["1.00".to_string(), "0.00".to_string()]),
        (false, Some(c)) if c.ratio.is_finite() => {
            cells.push(format!("{:.2}", c.ratio));
            cells.push(format!("{:.2}", c.ratio_sd));
        }
        _ => cells.extend([dash(), dash()]),
    }
    let mean = |m: &Metric| b.stats(m).map(|s| s.summary.mean);
    if has_rusage {
        cells.push(mean(&Metric::UserTime).map_or_else(dash, crate::format_duration_ns));
        cells.push(mean(&Metric::SystemTime).map_or_else(dash, crate::format_duration_ns));
        // The peak over every run, dropped outliers included: memory is not noise.
        let peak = b
            .samples
            .values(&Metric::PeakRss)
            .and_then(|v| v.iter().max())
            .map(|&v| v as f64);
        cells.push(peak.map_or_else(dash, |v| format_value(Unit::Bytes, v)));
    }
    if has_allocs {
        cells.push(mean(&Metric::Allocations).map_or_else(dash, |a| format!("{a:.2}")));
        cells.push(mean(&Metric::AllocatedBytes).map_or_else(dash, |a| format!("{a:.0} B")));
    }
    cells.push(b.analysed_times_ns().len().to_string());
    cells
}
