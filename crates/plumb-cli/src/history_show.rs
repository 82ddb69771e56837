//! `plumb history show` (one series: a trend line, its points, its recorded changes) and
//! `plumb history export` (every point as CSV or JSON, the changes recorded with them).
use crate::args::{ExportFormat, HistoryExportArgs, HistoryShowArgs};
use crate::exit::{self, CliError, Outcome};
use crate::history_out::{at, unit_of};
use plumb_history::{HistoryStore, StoredChange, StoredPoint, StoredSeries};
use plumb_model::format;
use std::fmt::Write;

/// The series `wanted` names: an id, a listed name, or a benchmark's wall time.
fn find(store: &mut dyn HistoryStore, wanted: &str) -> Result<StoredSeries, CliError> {
    let all = store.series()?;
    let by_id = wanted.parse::<i64>().ok();
    let hits: Vec<&StoredSeries> = all
        .iter()
        .filter(|s| Some(s.id) == by_id || s.name() == wanted)
        .collect();
    if let [one] = hits[..] {
        return Ok(one.clone());
    }
    let of_bench: Vec<&StoredSeries> = all.iter().filter(|s| s.key.benchmark == wanted).collect();
    if let Some(wall) = of_bench.iter().find(|s| s.key.metric == "wall-time") {
        if of_bench
            .iter()
            .filter(|s| s.key.metric == "wall-time")
            .count()
            == 1
        {
            return Ok((*wall).clone());
        }
    }
    let candidates: Vec<String> = hits
        .iter()
        .chain(&of_bench)
        .map(|s| format!("{} ({})", s.id, s.name()))
        .collect();
    Err(CliError::msg(if candidates.is_empty() {
        format!("no series {wanted:?}: plumb history list shows them")
    } else {
        format!(
            "{wanted:?} names more than one series ({}): give its id",
            candidates.join(", ")
        )
    }))
}

/// Eight levels of a block: a trend line in the terminal.
const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The trend of `points`' means (the last 100), and a caret under each change.
fn trend(points: &[StoredPoint], changes: &[usize]) -> String {
    let from = points.len().saturating_sub(100);
    let means: Vec<f64> = points[from..].iter().map(|p| p.point.mean).collect();
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
    let marks: String = (from..points.len())
        .map(|i| if changes.contains(&i) { '^' } else { ' ' })
        .collect();
    format!("{line}\n{}\n", marks.trim_end())
}

pub fn show(store: &mut dyn HistoryStore, args: &HistoryShowArgs) -> Result<Outcome, CliError> {
    let series = find(store, &args.series)?;
    let points = store.points(series.id)?;
    let changes = store.changes(series.id)?;
    let unit = unit_of(&points);
    let at_change: Vec<usize> = changes
        .iter()
        .filter_map(|c| points.iter().position(|p| p.run == c.run))
        .collect();
    let mut out = String::new();
    let _ = writeln!(out, "{}  [{}]", series.name(), series.key.machine.0);
    if points.is_empty() {
        exit::print_stdout(&out)?;
        return Ok(Outcome::Done);
    }
    let _ = writeln!(
        out,
        "{} points, {}..{}; {} change point(s) at the last analysis (plumb history changes)\n",
        points.len(),
        at(&points, 0),
        at(&points, points.len() - 1),
        changes.len()
    );
    out.push_str(&trend(&points, &at_change));
    let _ = writeln!(
        out,
        "\n  {:<12} {:<10} {:>5}  {:>12}  interval",
        "commit", "date", "n", "mean"
    );
    for (i, p) in points.iter().enumerate() {
        let date = p.commit.as_ref().map_or(p.recorded, |c| c.time).to_string();
        let interval = p.point.interval.map_or("-".to_string(), |(lo, hi)| {
            format!("[{}, {}]", format::value(unit, lo), format::value(unit, hi))
        });
        let mark = match changes.iter().find(|c| c.run == p.run) {
            Some(c) => format!("  ← change: {}", c.status.name()),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "  {:<12} {:<10} {:>5}  {:>12}  {interval}{mark}",
            at(&points, i),
            &date[..10.min(date.len())],
            p.point.n,
            format::value(unit, p.point.mean)
        );
    }
    exit::print_stdout(&out)?;
    Ok(Outcome::Done)
}

/// A CSV field, quoted when it must be.
fn csv(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

pub fn export(store: &mut dyn HistoryStore, args: &HistoryExportArgs) -> Result<Outcome, CliError> {
    let mut text = String::new();
    let mut json = Vec::new();
    if args.format == ExportFormat::Csv {
        text.push_str("series,benchmark,parameters,metric,machine,run,commit,commit_time,branch,dirty,recorded,n,mean,median,ci_lo,ci_hi,stderr,unit,plumb_version,change_status\n");
    }
    for s in store.series()? {
        let points = store.points(s.id)?;
        let changes = store.changes(s.id)?;
        match args.format {
            ExportFormat::Csv => csv_rows(&mut text, &s, &points, &changes),
            ExportFormat::Json => json.push(json_series(&s, &points, &changes)),
        }
    }
    if args.format == ExportFormat::Json {
        text = serde_json::to_string_pretty(&json).expect("JSON values serialise") + "\n";
    }
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| CliError::msg(format!("cannot write {}: {e}", path.display())))?,
        None => exit::print_stdout(&text)?,
    }
    Ok(Outcome::Done)
}

fn csv_rows(out: &mut String, s: &StoredSeries, points: &[StoredPoint], changes: &[StoredChange]) {
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
    for p in points {
        let c = p.commit.as_ref();
        let status = changes
            .iter()
            .find(|ch| ch.run == p.run)
            .map_or("", |ch| ch.status.name());
        let fields = [
            s.id.to_string(),
            csv(&s.key.benchmark),
            csv(&s.key.parameters_text()),
            csv(&s.key.metric),
            csv(&s.key.machine.0),
            p.run.to_string(),
            c.map_or(String::new(), |c| c.sha.clone()),
            c.map_or(String::new(), |c| c.time.to_string()),
            csv(c.and_then(|c| c.branch.as_deref()).unwrap_or("")),
            c.is_some_and(|c| c.dirty).to_string(),
            p.recorded.to_string(),
            p.point.n.to_string(),
            p.point.mean.to_string(),
            p.point.median.to_string(),
            opt(p.point.interval.map(|i| i.0)),
            opt(p.point.interval.map(|i| i.1)),
            opt(p.point.stderr),
            p.point.unit.as_str().to_string(),
            csv(&p.plumb_version),
            status.to_string(),
        ];
        let _ = writeln!(out, "{}", fields.join(","));
    }
}

fn json_series(
    s: &StoredSeries,
    points: &[StoredPoint],
    changes: &[StoredChange],
) -> serde_json::Value {
    let points: Vec<serde_json::Value> = points
        .iter()
        .map(|p| {
            serde_json::json!({
                "run": p.run,
                "commit": p.commit.as_ref().map(|c| serde_json::json!({
                    "sha": c.sha, "time": c.time.to_string(), "branch": c.branch, "dirty": c.dirty,
                })),
                "recorded": p.recorded.to_string(),
                "n": p.point.n,
                "mean": p.point.mean,
                "median": p.point.median,
                "interval": p.point.interval.map(|i| [i.0, i.1]),
                "stderr": p.point.stderr,
                "unit": p.point.unit.as_str(),
                "plumb_version": p.plumb_version,
            })
        })
        .collect();
    let changes: Vec<serde_json::Value> = changes
        .iter()
        .map(|c| serde_json::json!({
            "run": c.run, "status": c.status.name(), "first_seen": c.first_seen.to_string(), "note": c.note,
        }))
        .collect();
    serde_json::json!({
        "id": s.id,
        "benchmark": s.key.benchmark,
        "parameters": s.key.parameters,
        "metric": s.key.metric,
        "machine": s.key.machine.0,
        "points": points,
        "changes": changes,
    })
}
