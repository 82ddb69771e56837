//! The summary table as formatted cells, shared by the terminal and Markdown renderers.

use plumb_model::format::{self, ColumnUnit, TimeUnit};
use plumb_model::{Benchmark, Metric, ResultDocument, Unit};

pub struct Table {
    pub header: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
    /// Columns to right-align.
    pub numeric: Vec<bool>,
}

/// Which columns a table has, and how each time column is written: each column its own
/// unit, the smallest in which its largest cell needs at most four integer digits, or each
/// cell its own when the column spans more than three orders of magnitude
/// (`format::ColumnUnit`).
struct Layout {
    /// Mean, Error, StdDev, Median, Min, Max.
    time: [ColumnUnit; 6],
    ratio: bool,
    /// RatioSD, User, Sys and MaxRSS too (`-v`, `plumb show`, Markdown).
    full: bool,
    /// User and Sys.
    rusage: Option<(ColumnUnit, ColumnUnit)>,
    allocs: bool,
}

/// The wall-time figures of a row, in the order of the table's time columns. An imported
/// benchmark with only its harness's summary shows the figures the harness gave (its
/// Error, at another level than the run's, is not shown).
fn time_cells(b: &Benchmark) -> Option<[f64; 6]> {
    let Some(t) = b.time() else {
        let r = b.reported_summary(&Metric::WallTime)?;
        let nan = f64::NAN;
        return Some([
            r.mean.unwrap_or(nan),
            nan,
            r.std_dev.unwrap_or(nan),
            r.median.unwrap_or(nan),
            r.min.unwrap_or(nan),
            r.max.unwrap_or(nan),
        ]);
    };
    let s = &t.summary;
    Some([
        s.mean,
        t.error.unwrap_or(f64::NAN),
        s.std_dev,
        s.median,
        s.min,
        s.max,
    ])
}

fn layout(doc: &ResultDocument, full: bool) -> Layout {
    let means = |m: &Metric| -> Vec<f64> {
        doc.benchmarks
            .iter()
            .filter_map(|b| b.stats(m).map(|s| s.summary.mean))
            .collect()
    };
    let rows: Vec<[f64; 6]> = doc.benchmarks.iter().filter_map(time_cells).collect();
    let column = |i: usize| rows.iter().map(|r| r[i]).collect::<Vec<f64>>();
    // A column of zeros (system time of a command that makes no system calls worth a
    // tick) is written in the means' unit.
    let mean_unit = match ColumnUnit::of(&column(0), TimeUnit::Ns) {
        ColumnUnit::Shared(u) => u,
        ColumnUnit::PerCell => TimeUnit::Ns,
    };
    let time = std::array::from_fn(|i| ColumnUnit::of(&column(i), mean_unit));
    let (user, sys) = (means(&Metric::UserTime), means(&Metric::SystemTime));
    Layout {
        time,
        // A ratio needs something to compare with.
        ratio: doc.benchmarks.len() > 1 || !doc.comparisons.is_empty(),
        full,
        rusage: (full && !user.is_empty()).then(|| {
            (
                ColumnUnit::of(&user, mean_unit),
                ColumnUnit::of(&sys, mean_unit),
            )
        }),
        allocs: !means(&Metric::Allocations).is_empty(),
    }
}

/// The summary table; without `full`, the columns a decision reads (no RatioSD, User,
/// Sys, MaxRSS).
pub fn summary_table(doc: &ResultDocument, full: bool) -> Table {
    let l = layout(doc, full);
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
        header.push("Ratio");
        if l.full {
            header.push("RatioSD");
        }
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
    let dash = || "-".to_string();
    let name = if b.baseline && doc.benchmarks.len() > 1 {
        format!("{} (baseline)", b.name)
    } else {
        b.name.clone()
    };
    let mut cells = vec![name];
    match time_cells(b) {
        Some(figures) => cells.extend(figures.iter().zip(l.time).map(|(&v, unit)| unit.format(v))),
        None => cells.extend((0..6).map(|_| dash())),
    }
    if l.ratio {
        let comparison = doc.comparisons.iter().find(|c| c.candidate == b.name);
        // Each group has its own baseline; a benchmark's ratio is its own comparison's.
        let (ratio, sd) = match (b.baseline, comparison) {
            (true, _) => ("1.00".to_string(), "0.00".to_string()),
            (false, Some(c)) if c.ratio.is_finite() => {
                (format!("{:.2}", c.ratio), format!("{:.2}", c.ratio_sd))
            }
            _ => (dash(), dash()),
        };
        cells.push(ratio);
        if l.full {
            cells.push(sd);
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
    cells.push(match b.reported_summary(&Metric::WallTime) {
        Some(r) => r.n.map_or_else(dash, |n| n.to_string()),
        _ => b.analysed_times_ns().len().to_string(),
    });
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::BenchmarkKind;

    fn doc(times_ns: &[&[u64]]) -> ResultDocument {
        let mut d = crate::fixture::document();
        d.benchmarks = times_ns
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let mut b =
                    Benchmark::of_wall_times(format!("b{i}"), BenchmarkKind::Command, t.to_vec());
                b.baseline = i == 0;
                let summary = plumb_model::Summary::of(&b.times_ns()).unwrap();
                let stats = plumb_model::MetricStats {
                    error: Some(summary.std_dev / 2.0),
                    summary,
                    mean_ci: None,
                    std_err: None,
                    median_ci: None,
                    between_runs: None,
                };
                b.stats.insert(Metric::WallTime, stats);
                b
            })
            .collect();
        d
    }

    /// 1 ms and 200 ms benchmarks: milliseconds in every time column, never "201278 µs".
    #[test]
    fn a_column_is_written_in_the_unit_no_cell_needs_five_digits_in() {
        let t = summary_table(
            &doc(&[
                &[1_000_000, 1_010_000, 990_000, 1_005_000],
                &[200_000_000, 201_278_000, 199_000_000, 200_500_000],
            ]),
            true,
        );
        let mean = &t.rows[1][1];
        assert_eq!(mean, "200.2 ms", "{:?}", t.rows);
        assert_eq!(t.rows[1][6], "201.3 ms");
        assert_eq!(t.rows[0][5], "0.9900 ms");
        for row in &t.rows {
            for cell in &row[1..7] {
                let digits = cell.split('.').next().unwrap().trim_start_matches('-');
                assert!(digits.len() <= 4 || !cell.ends_with(" ms"), "{cell}");
            }
        }
    }

    /// 2 ns and 5 ms in one column span more than ×1000: each cell its own unit.
    #[test]
    fn a_column_spanning_more_than_three_orders_is_written_per_cell() {
        let t = summary_table(
            &doc(&[&[2, 2, 2, 3], &[5_000_000, 5_000_100, 4_999_900, 5_000_000]]),
            true,
        );
        assert_eq!(t.rows[0][1], "2.250 ns", "{:?}", t.rows);
        assert_eq!(t.rows[1][1], "5.000 ms", "{:?}", t.rows);
    }
}
