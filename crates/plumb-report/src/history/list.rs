//! `plumb history list`: each series in a line, with its points, commits and last value.
use super::at;
use plumb_history::SeriesRecord;
use plumb_model::format;
use std::fmt::Write;

pub fn render_history_list(all: &[SeriesRecord]) -> String {
    let mut out = String::new();
    if all.is_empty() {
        out.push_str("The history is empty: plumb history add RESULT.json keeps a result.\n");
        return out;
    }
    // As wide as the longest name: a long one must not push its row's columns out of
    // line with the others'.
    let names: Vec<String> = all.iter().map(|h| h.series.name()).collect();
    let width = (names.iter())
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let _ = writeln!(
        out,
        "{:>4}  {:<width$} {:>6}  {:<23} {:>12}",
        "id", "series", "points", "commits", "last"
    );
    for (h, name) in all.iter().zip(&names) {
        let Some(last) = h.points.last() else {
            continue;
        };
        let range = format!("{}..{}", at(h, 0), at(h, h.points.len() - 1));
        let _ = writeln!(
            out,
            "{:>4}  {:<width$} {:>6}  {:<23} {:>12}",
            h.series.id,
            name,
            h.series.points,
            range,
            format::value(h.unit(), last.point.mean)
        );
    }
    out
}
