//! `plumb history export`: every point of every series as CSV (one row a point) or JSON
//! (one object a series, its points and its changes with what the last analysis found).

use plumb_history::SeriesRecord;
use plumb_history::{Found, Level, StoredChange, StoredPoint};
use serde_json::{json, Value};
use std::fmt::Write;

const CSV_HEADER: &str = "series,benchmark,parameters,metric,machine,run,commit,commit_time,branch,dirty,recorded,n,mean,median,ci_lo,ci_hi,stderr,unit,plumb_version,change_status\n";

/// A CSV field, quoted when it must be.
fn csv(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

pub fn history_csv(all: &[SeriesRecord]) -> String {
    let mut out = String::from(CSV_HEADER);
    for h in all {
        for (i, p) in h.points.iter().enumerate() {
            let status = h
                .changes
                .iter()
                .find(|c| h.start_of(c) == Some(i))
                .map_or("", |c| c.status.name());
            let _ = writeln!(out, "{}", csv_row(h, p, status).join(","));
        }
    }
    out
}

fn csv_row(h: &SeriesRecord, p: &StoredPoint, status: &str) -> [String; 20] {
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
    let (s, c) = (&h.series, p.commit.as_ref());
    [
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
    ]
}

pub fn history_json(all: &[SeriesRecord]) -> String {
    let series: Vec<Value> = all.iter().map(json_series).collect();
    serde_json::to_string_pretty(&series).expect("JSON values serialise") + "\n"
}

fn json_series(h: &SeriesRecord) -> Value {
    let points: Vec<Value> = h
        .points
        .iter()
        .map(|p| {
            json!({
                "run": p.run,
                "commit": p.commit.as_ref().map(|c| json!({
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
    let changes: Vec<Value> = h.changes.iter().chain(&h.parity).map(json_change).collect();
    let s = &h.series;
    json!({
        "id": s.id,
        "benchmark": s.key.benchmark,
        "parameters": s.key.parameters,
        "metric": s.key.metric,
        "machine": s.key.machine.0,
        "points": points,
        "changes": changes,
    })
}

fn json_change(c: &StoredChange) -> Value {
    let level =
        |l: &Level| json!({"n": l.n, "mean": l.mean, "interval": l.interval.map(|i| [i.0, i.1])});
    let found = c.found.map(|f: Found| {
        json!({
            "at_run": f.at_run,
            "before": level(&f.before),
            "after": level(&f.after),
            "relative": f.relative(),
            "p": f.p,
        })
    });
    json!({
        "run": c.run, "method": c.method.name(), "status": c.status.name(),
        "first_seen": c.first_seen.to_string(), "note": c.note, "found": found,
    })
}
