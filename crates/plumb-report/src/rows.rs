//! The summary table as formatted cells, shared by the terminal and Markdown renderers.

use crate::units::TimeUnit;
use plumb_model::{Benchmark, ResultDocument};

pub struct Table {
    pub header: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
    /// Columns to right-align.
    pub numeric: Vec<bool>,
}

fn mean_of(values: impl Iterator<Item = Option<u64>>) -> Option<f64> {
    let v: Vec<u64> = values.collect::<Option<Vec<_>>>()?;
    (!v.is_empty()).then(|| v.iter().sum::<u64>() as f64 / v.len() as f64)
}

pub fn summary_table(doc: &ResultDocument) -> Table {
    let unit = doc
        .benchmarks
        .iter()
        .filter_map(|b| b.time.as_ref().map(|t| t.summary.mean))
        .fold(f64::INFINITY, f64::min);
    let unit = TimeUnit::for_value(if unit.is_finite() { unit } else { 0.0 });
    let has_rusage = doc
        .benchmarks
        .iter()
        .any(|b| b.samples.iter().any(|s| s.user_ns.is_some()));
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
    let has_allocs = doc.benchmarks.iter().any(|b| {
        b.function
            .as_ref()
            .is_some_and(|f| f.allocs_per_op.is_some())
    });
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
    match &b.time {
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
    if has_rusage {
        let user = mean_of(b.samples.iter().map(|s| s.user_ns));
        let sys = mean_of(b.samples.iter().map(|s| s.sys_ns));
        let rss = b.samples.iter().filter_map(|s| s.max_rss_kib).max();
        cells.push(user.map_or_else(dash, crate::format_duration_ns));
        cells.push(sys.map_or_else(dash, crate::format_duration_ns));
        cells.push(rss.map_or_else(dash, |k| format!("{:.1} MiB", k as f64 / 1024.0)));
    }
    if has_allocs {
        let f = b.function.as_ref();
        cells.push(
            f.and_then(|f| f.allocs_per_op)
                .map_or_else(dash, |a| format!("{a:.2}")),
        );
        cells.push(
            f.and_then(|f| f.bytes_per_op)
                .map_or_else(dash, |a| format!("{a:.0} B")),
        );
    }
    cells.push(b.analysed_times_ns().len().to_string());
    cells
}
