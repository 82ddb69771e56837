//! `plumb history show`: one series — a trend line of its means with a caret under each
//! change, then its points with their intervals, each change's point marked.
use super::{at, date};
use plumb_history::SeriesRecord;
use plumb_model::format;
use std::fmt::Write;

/// Eight levels of a block: a trend line in the terminal.
const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The points a trend line draws: the last 100.
const TREND_POINTS: usize = 100;

pub fn render_series(h: &SeriesRecord) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}  [{}]", h.series.name(), h.series.key.machine.0);
    if h.points.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "{} points, {}..{}; {} change point(s) at the last analysis (plumb history changes)\n",
        h.points.len(),
        at(h, 0),
        at(h, h.points.len() - 1),
        h.changes.len()
    );
    let starts: Vec<usize> = h.changes.iter().filter_map(|c| h.start_of(c)).collect();
    out.push_str(&trend(h, &starts));
    let _ = writeln!(
        out,
        "\n  {:<12} {:<10} {:>5}  {:>12}  interval",
        "commit", "date", "n", "mean"
    );
    let unit = h.unit();
    for (i, p) in h.points.iter().enumerate() {
        let interval = p.point.interval.map_or("-".to_string(), |(lo, hi)| {
            format!("[{}, {}]", format::value(unit, lo), format::value(unit, hi))
        });
        let mark = match h.changes.iter().find(|c| h.start_of(c) == Some(i)) {
            Some(c) => format!("  ← change: {}", c.status.name()),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "  {:<12} {:<10} {:>5}  {:>12}  {interval}{mark}",
            at(h, i),
            date(h, i),
            p.point.n,
            format::value(unit, p.point.mean)
        );
    }
    out
}

/// The trend of the means (the last `TREND_POINTS`), and a caret under each change.
fn trend(h: &SeriesRecord, changes: &[usize]) -> String {
    let from = h.points.len().saturating_sub(TREND_POINTS);
    let means: Vec<f64> = h.points[from..].iter().map(|p| p.point.mean).collect();
    let (lo, hi) = means
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), m| {
            (l.min(*m), h.max(*m))
        });
    let line: String = means
        .iter()
        .map(|m| {
            let f = if hi > lo { (m - lo) / (hi - lo) } else { 0.5 };
            BLOCKS[((f * 7.0).round() as usize).min(7)]
        })
        .collect();
    let marks: String = (from..h.points.len())
        .map(|i| if changes.contains(&i) { '^' } else { ' ' })
        .collect();
    format!("{line}\n{}\n", marks.trim_end())
}
