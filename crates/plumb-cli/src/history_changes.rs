//! `plumb history changes` and `list`: each series read from the store, its change points
//! found by plumb's method (α held across every series at once), recorded with their status,
//! and said as a table or Markdown; `--fail-on new-change` gates CI.
use crate::args::{FailOn, HistoryChangesArgs};
use crate::exit::{self, CliError};
use crate::history_cmd::short;
use plumb_history::{ChangeStatus, HistoryStore, StoredChange, StoredPoint, StoredSeries};
use plumb_model::format;
use plumb_model::quantity::Timestamp;
use plumb_model::Unit;
use plumb_stats::{change_points, merge_across, Change, ChangeParams, Series, SplitState};
use std::fmt::Write;

/// One series with its points and the changes found in it.
struct Analysed {
    series: StoredSeries,
    points: Vec<StoredPoint>,
    changes: Vec<(Change, StoredChange)>,
}

pub fn run(store: &mut dyn HistoryStore, args: &HistoryChangesArgs) -> Result<i32, CliError> {
    if !(args.alpha > 0.0 && args.alpha < 1.0) {
        return Err(CliError(format!(
            "--alpha {}: must be between 0 and 1",
            args.alpha
        )));
    }
    if args.window < 6 {
        return Err(CliError(format!(
            "--window {}: must be at least 6 points",
            args.window
        )));
    }
    let params = ChangeParams {
        window: args.window,
        alpha: args.alpha,
        ..ChangeParams::default()
    };
    let analysed = analyse(store, params)?;
    let text = if args.markdown {
        markdown(&analysed, args)
    } else {
        table(&analysed, args)
    };
    exit::print_stdout(&text)?;
    let failing = analysed
        .iter()
        .flat_map(|a| &a.changes)
        .filter(|(c, s)| fails(c, s, args))
        .count();
    if args.fail_on == Some(FailOn::NewChange) && failing > 0 {
        eprintln!(
            "plumb: {failing} new change point(s) slower by more than the SESOI ({})",
            format::percent(args.sesoi.get())
        );
        return Ok(exit::REGRESSION);
    }
    Ok(exit::OK)
}

/// A new, unacknowledged change to a slower level beyond the SESOI.
fn fails(c: &Change, s: &StoredChange, args: &HistoryChangesArgs) -> bool {
    s.new
        && matches!(s.status, ChangeStatus::Candidate | ChangeStatus::Confirmed)
        && c.relative() > args.sesoi.get()
}

/// Every series' change points, found and recorded.
fn analyse(store: &mut dyn HistoryStore, params: ChangeParams) -> Result<Vec<Analysed>, CliError> {
    let mut data = Vec::new();
    for series in store.series()? {
        let points = store.points(series.id)?;
        let (values, errors) = values_of(&points);
        data.push((series, points, values, errors));
    }
    let states: Vec<SplitState> = data
        .iter()
        .map(|(_, _, v, e)| {
            let s = Series {
                values: v,
                errors: e.as_deref(),
            };
            change_points(s, params).map(|(_, state)| state)
        })
        .collect::<Result<_, _>>()?;
    let items: Vec<(Series, &SplitState)> = data
        .iter()
        .zip(&states)
        .map(|((_, _, v, e), st)| {
            (
                Series {
                    values: v,
                    errors: e.as_deref(),
                },
                st,
            )
        })
        .collect();
    let found = merge_across(&items, params);
    let now = Timestamp::now();
    let mut out = Vec::new();
    for ((series, points, _, _), changes) in data.into_iter().zip(found) {
        let runs: Vec<i64> = changes.iter().map(|c| points[c.index].run).collect();
        let stored = store.record_changes(series.id, &runs, now)?;
        let changes = changes
            .into_iter()
            .filter_map(|c| {
                let run = points[c.index].run;
                stored.iter().find(|s| s.run == run).map(|s| (c, s.clone()))
            })
            .collect();
        out.push(Analysed {
            series,
            points,
            changes,
        });
    }
    Ok(out)
}

/// The series' means, and their standard errors where every point has one or the missing
/// ones can take the median of the others (a point of one run has none).
fn values_of(points: &[StoredPoint]) -> (Vec<f64>, Option<Vec<f64>>) {
    let values = points.iter().map(|p| p.point.mean).collect();
    let mut known: Vec<f64> = points.iter().filter_map(|p| p.point.stderr).collect();
    if known.is_empty() {
        return (values, None);
    }
    known.sort_by(f64::total_cmp);
    let median = known[known.len() / 2];
    let errors = points
        .iter()
        .map(|p| p.point.stderr.unwrap_or(median))
        .collect();
    (values, Some(errors))
}

fn unit_of(points: &[StoredPoint]) -> Unit {
    match points.first().map(|p| p.point.unit.as_str()) {
        Some("bytes") => Unit::Bytes,
        Some("count") => Unit::Count,
        _ => Unit::Nanoseconds,
    }
}

/// The series' name as people say it: benchmark, parameters, metric.
fn name(s: &StoredSeries) -> String {
    let mut n = s.key.benchmark.clone();
    if !s.key.parameters.is_empty() {
        let p: Vec<String> = s
            .key
            .parameters
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let _ = write!(n, " ({})", p.join(", "));
    }
    let _ = write!(n, " · {}", s.key.metric);
    n
}

/// The commit (or run) of point `i`.
fn at(points: &[StoredPoint], i: usize) -> String {
    match &points[i].commit {
        Some(c) => short(&c.sha).to_string(),
        None => format!("run {}", points[i].run),
    }
}

/// One change in words: where, from what to what, by how much, how sure, its status.
fn said(a: &Analysed, c: &Change, s: &StoredChange) -> [String; 6] {
    let unit = unit_of(&a.points);
    let level = |l: &plumb_stats::Level| {
        format!(
            "{} [{}, {}]",
            format::value(unit, l.mean),
            format::value(unit, l.interval.lo),
            format::value(unit, l.interval.hi)
        )
    };
    let status = format!("{}{}", s.status.name(), if s.new { ", new" } else { "" });
    [
        format!("{}@{}", a.series.id, s.run),
        format!("{}..{}", at(&a.points, c.index - 1), at(&a.points, c.index)),
        format!("{} → {}", level(&c.test.before), level(&c.test.after)),
        format::signed_percent(c.relative()),
        format!("{:.1e}", c.test.p),
        status,
    ]
}

fn table(analysed: &[Analysed], args: &HistoryChangesArgs) -> String {
    let mut out = String::new();
    let total: usize = analysed.iter().map(|a| a.changes.len()).sum();
    let _ = writeln!(
        out,
        "{} series, {} change point{} (α = {} across all series, corrected for the search)",
        analysed.len(),
        total,
        if total == 1 { "" } else { "s" },
        args.alpha
    );
    for a in analysed.iter().filter(|a| !a.changes.is_empty()) {
        let _ = writeln!(out, "\n{}  [{}]", name(&a.series), a.series.key.machine.0);
        for (c, s) in &a.changes {
            let [id, range, levels, rel, p, status] = said(a, c, s);
            let _ = writeln!(
                out,
                "  {id:<8} {range:<22} {levels}  {rel:>7}  p={p}  {status}"
            );
        }
    }
    out
}

fn markdown(analysed: &[Analysed], args: &HistoryChangesArgs) -> String {
    let mut out = String::from("## plumb history: change points\n\n");
    let rows: Vec<_> = analysed
        .iter()
        .flat_map(|a| a.changes.iter().map(move |(c, s)| (a, c, s)))
        .collect();
    if rows.is_empty() {
        let _ = writeln!(
            out,
            "No change point in {} series (α = {}).",
            analysed.len(),
            args.alpha
        );
        return out;
    }
    out.push_str("| | series | change | commits | before → after | change | p | status |\n|---|---|---|---|---|---|---|---|\n");
    for (a, c, s) in rows {
        let [id, range, levels, rel, p, status] = said(a, c, s);
        let mark = if fails(c, s, args) { "🔴" } else { "" };
        let _ = writeln!(
            out,
            "| {mark} | {} | `{id}` | `{range}` | {levels} | {rel} | {p} | {status} |",
            name(&a.series).replace('|', "\\|")
        );
    }
    out
}

/// `plumb history list`: each series with its points, commits, last value and changes.
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
            name(&s),
            s.points,
            range,
            format::value(unit_of(&points), last.point.mean)
        );
    }
    Ok(out)
}
