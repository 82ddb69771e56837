//! What `plumb history` shows of the store: `list` (each series in a line), and the words
//! every history output shares — a point's commit, a series' unit (a series' name is
//! plumb-history's `StoredSeries::name`).
use crate::exit::CliError;
use plumb_history::git::short;
use plumb_history::{HistoryStore, StoredPoint};
use plumb_model::format;
use plumb_model::Unit;
use std::fmt::Write;

pub fn unit_of(points: &[StoredPoint]) -> Unit {
    points.first().map_or(Unit::Nanoseconds, |p| p.point.unit)
}

/// The commit (or run) of point `i`.
pub fn at(points: &[StoredPoint], i: usize) -> String {
    match &points[i].commit {
        Some(c) => short(&c.sha).to_string(),
        None => format!("run {}", points[i].run),
    }
}

/// `plumb history list`: each series with its points, commits and last value.
pub fn list(store: &mut dyn HistoryStore) -> Result<String, CliError> {
    let mut out = String::new();
    let series = store.series()?;
    if series.is_empty() {
        out.push_str("The history is empty: plumb history add RESULT.json keeps a result.\n");
        return Ok(out);
    }
    let _ = writeln!(
        out,
        "{:>4}  {:<40} {:>6}  {:<23} {:>12}",
        "id", "series", "points", "commits", "last"
    );
    for s in series {
        let points = store.points(s.id)?;
        let Some(last) = points.last() else {
            continue;
        };
        let range = format!("{}..{}", at(&points, 0), at(&points, points.len() - 1));
        let _ = writeln!(
            out,
            "{:>4}  {:<40} {:>6}  {:<23} {:>12}",
            s.id,
            s.name(),
            s.points,
            range,
            format::value(unit_of(&points), last.point.mean)
        );
    }
    Ok(out)
}
