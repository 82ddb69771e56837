//! The summary table as formatted cells, shared by the terminal and Markdown renderers.

use plumb_model::format::{self, TimeUnit};
use plumb_model::{Benchmark, Metric, ResultDocument, Unit};

pub struct Table {
    pub header: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
    /// Columns to right-align.
    pub numeric: Vec<bool>,
}

/// Which columns a table has, and the unit of each time column: one unit per column,
/// chosen from its smallest non-zero value, so numbers line up and compare at a glance.
struct Layout {
    time: TimeUnit,
    ratio: bool,
    rusage: Option<(TimeUnit, TimeUnit)>,
    allocs: bool,
}

/// A column of zeros (system time of a command that makes no system calls worth a tick)
/// takes `if_all_zero`, the table's time unit, rather than nanoseconds.
fn column_unit<'a>(values: impl Iterator<Item = &'a f64>, if_all_zero: TimeUnit) -> TimeUnit {
    let smallest = values
        .map(|v| v.abs())
        .filter(|v| *v > 0.0 && v.is_finite())
        .fold(f64::INFINITY, f64::min);
    if smallest.is_finite() {
        TimeUnit::for_value(smallest)
    } else {
        if_all_zero
    }
}

fn layout(doc: &ResultDocument) -> Layout {
    let means = |m: &Metric| -> Vec<f64> {
        doc.benchmarks
            .iter()
            .filter_map(|b| b.stats(m).map(|s| s.summary.mean))
            .collect()
    };
    let (user, sys) = (means(&Metric::UserTime), means(&Metric::SystemTime));
    let time = column_unit(means(&Metric::WallTime).iter(), TimeUnit::Ns);
    Layout {
        time,
        // A ratio needs something to compare with.
        ratio: doc.benchmarks.len() > 1 || !doc.comparisons.is_empty(),
        rusage: (!user.is_empty()).then(|| {
            (
                column_unit(user.iter(), time),
                column_unit(sys.iter(), time),
            )
        }),
        allocs: !means(&Metric::Allocations).is_empty(),
    }
}

pub fn summary_table(doc: &ResultDocument) -> Table {
    let l = layout(doc);
    let mut header = vec![
        "Benchmark",
        "Mean",
        "Error",
        "StdDev",
        "Median",
        "Min",
        "Max",
    ];
    if l.ratio {
        header.extend(["Ratio", "RatioSD"]);
    }
    if l.rusage.is_some() {
        header.extend(["User", "Sys", "MaxRSS"]);
    }
    if l.allocs {
        header.extend(["Allocs/op", "Bytes/op"]);
    }
    header.push("N");
    let mut numeric = vec![true; header.len()];
    numeric[0] = false;
    let rows = doc.benchmarks.iter().map(|b| row(doc, b, &l)).collect();
    Table {
        header,
        rows,
        numeric,
    }
}

fn row(doc: &ResultDocument, b: &Benchmark, l: &Layout) -> Vec<String> {
    let unit = l.time;
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
    if l.ratio {
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
    }
    let mean = |m: &Metric| b.stats(m).map(|s| s.summary.mean);
    if let Some((user, sys)) = l.rusage {
        cells.push(mean(&Metric::UserTime).map_or_else(dash, |v| user.format(v)));
        cells.push(mean(&Metric::SystemTime).map_or_else(dash, |v| sys.format(v)));
        // The peak over every run, dropped outliers included: memory is not noise.
        let peak = b
            .samples
            .values(&Metric::PeakRss)
            .and_then(|v| v.iter().max())
            .map(|&v| v as f64);
        cells.push(peak.map_or_else(dash, |v| format::value(Unit::Bytes, v)));
    }
    if l.allocs {
        cells.push(mean(&Metric::Allocations).map_or_else(dash, |a| format!("{a:.2}")));
        cells.push(
            mean(&Metric::AllocatedBytes).map_or_else(dash, |a| format::value(Unit::Bytes, a)),
        );
    }
    cells.push(b.analysed_times_ns().len().to_string());
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_of_zeros_takes_the_tables_unit() {
        assert_eq!(column_unit([0.0, 0.0].iter(), TimeUnit::Us), TimeUnit::Us);
        assert_eq!(
            column_unit([0.0, 2500.0].iter(), TimeUnit::Ms),
            TimeUnit::Us
        );
    }
}
