//! hyperfine's `--export-json`. Schema 1 (hyperfine 1.x): `results[]`, each with
//! `command`, `times` (seconds, one per run), `exit_codes`, `parameters`; its `user` and
//! `system` are means only, so they are not samples and are left out. Schema 2 (hyperfine
//! 2.0, `"schema_version": 2`): each result's `measurements[]` hold every metric of one
//! run (`time_wall_clock: {value, unit}`, CPU, user and system time, peak RSS, hardware
//! counters) and its `exit_code`; `summary` is recomputed from them, not read.

use crate::error::ImportError;
use crate::{ForeignTool, Reading};
use plumb_model::{
    Benchmark, BenchmarkKind, Environment, Exit, Metric, MetricInfo, ResultDocument, Samples,
    Source, Unit,
};
use serde_json::{Map, Value};

/// The newest schema read; a newer one is refused by name rather than half-read.
const NEWEST_SCHEMA: u64 = 2;

pub fn recognises(v: &Value) -> bool {
    v["results"].as_array().is_some_and(|r| {
        r.iter().all(|e| {
            e.get("command").is_some()
                && (e.get("times").is_some() || e.get("measurements").is_some())
        })
    })
}

pub fn read(v: &Value) -> Result<(ResultDocument, Vec<String>), ImportError> {
    let schema = match &v["schema_version"] {
        Value::Null => 1,
        s => {
            s.as_u64()
                .filter(|n| (1..=NEWEST_SCHEMA).contains(n))
                .ok_or_else(|| {
                    ImportError::at(
                "schema_version",
                format!("is {s}: plumb reads hyperfine's schemas 1 and 2 (hyperfine 1.x and 2.0)"),
            )
                })?
        }
    };
    let mut reading = Reading::new(ForeignTool::Hyperfine, environment(&v["metadata"]));
    if let Some(started) = v["metadata"]["start_time"]
        .as_str()
        .and_then(|t| t.parse().ok())
    {
        reading.doc.started = started;
    }
    let results = v["results"]
        .as_array()
        .ok_or_else(|| ImportError::at("", "no \"results\""))?;
    for (i, r) in results.iter().enumerate() {
        let place = format!("results[{i}]");
        let Some(command) = r["command"].as_str() else {
            reading
                .notes
                .push(format!("{place}: \"command\" is not text; left out"));
            continue;
        };
        let name = r["name"].as_str().unwrap_or(command);
        let mut b = Benchmark::new(name, BenchmarkKind::Command);
        b.set_command(command.to_string());
        b.baseline = i == 0;
        if let Some(p) = r["parameters"].as_object() {
            b.parameters = p.iter().map(|(k, v)| (k.clone(), parameter(v))).collect();
        }
        let filled = match schema {
            1 => runs_v1(r),
            _ => runs_v2(r),
        }
        .map(|(samples, metrics, left_out)| {
            b.samples = samples;
            for (m, info) in metrics {
                b.metrics.insert(m, info);
            }
            for why in left_out {
                reading.notes.push(format!("{place} ({name}): {why}"));
            }
        });
        reading.keep(&place, b, filled);
    }
    Ok(reading.done())
}

/// What hyperfine 2 records of the machine: its OS and architecture, nothing more.
fn environment(metadata: &Value) -> Environment {
    let text = |key: &str| metadata["platform"][key].as_str().map(str::to_string);
    Environment {
        os: text("os"),
        arch: text("architecture"),
        ..Environment::default()
    }
}

/// A parameter's value: text in schema 1, `{"value": text}` in schema 2.
fn parameter(v: &Value) -> String {
    let v = v.get("value").unwrap_or(v);
    v.as_str().map_or(v.to_string(), str::to_string)
}

/// The samples of a benchmark and the metrics they carry, with what was left out of them.
type Runs = (Samples, Vec<(Metric, MetricInfo)>, Vec<String>);

/// Schema 1: a result's `times` and `exit_codes` (nothing in them is left out).
fn runs_v1(r: &Value) -> Result<Runs, ImportError> {
    let times = times(r)?;
    let codes: Option<Vec<Exit>> = r["exit_codes"]
        .as_array()
        .filter(|c| c.len() == times.len())
        .map(|c| c.iter().map(exit).collect());
    let mut s = Samples::default();
    for (i, &t) in times.iter().enumerate() {
        let wall = [(Metric::WallTime, t)];
        match &codes {
            Some(c) => s.push_run(1, &wall, c[i]),
            None => s.push(1, &wall),
        }
    }
    let wall = (Metric::WallTime, MetricInfo::measured(&Metric::WallTime));
    Ok((s, vec![wall], Vec::new()))
}

/// How a run ended: hyperfine writes a number, or null for a run a signal killed.
fn exit(code: &Value) -> Exit {
    code.as_i64()
        .and_then(|c| i32::try_from(c).ok())
        .map_or(Exit::SIGNAL_NOT_RECORDED, Exit::Code)
}

/// A result's `times` (seconds) in nanoseconds, or why they are not run times.
fn times(r: &Value) -> Result<Vec<u64>, ImportError> {
    let list = r["times"].as_array().ok_or("\"times\" is not a list")?;
    if list.is_empty() {
        return Err("\"times\" is empty: no run to read".into());
    }
    list.iter()
        .enumerate()
        .map(|(k, t)| match t.as_f64() {
            None => Err(ImportError::from(format!(
                "times[{k}] is {t}, not a number"
            ))),
            Some(t) if t < 0.0 => Err(format!("times[{k}] is {}", below_zero(t)).into()),
            Some(t) => crate::whole_ns(t * 1e9).map_err(|e| format!("times[{k}]: {e}").into()),
        })
        .collect()
}

/// Why a time below zero is no run's duration. hyperfine subtracts its shell's spawn
/// time, which can exceed a short command's own; reading it as 0 would bias everything
/// computed from it.
fn below_zero(t: f64) -> String {
    format!("{t} (seconds), below zero: hyperfine subtracted more shell start-up than the run took; measure it again without the shell (hyperfine -N) or with plumb run")
}

/// Seconds as whole nanoseconds, or why they are not a run's duration.
fn seconds(t: f64) -> Result<u64, ImportError> {
    if t < 0.0 {
        return Err(below_zero(t).into());
    }
    crate::whole_ns(t * 1e9)
}

/// Schema 2: every metric of a result's `measurements`. A metric some runs lack is left
/// out (a sample holds the same metrics in every run), as is one plumb does not know.
fn runs_v2(r: &Value) -> Result<Runs, ImportError> {
    let runs = r["measurements"]
        .as_array()
        .ok_or("\"measurements\" is not a list")?;
    let first = match runs.first().map(Value::as_object) {
        None => return Err("\"measurements\" is empty: no run to read".into()),
        Some(None) => return Err("measurements[0] is not an object".into()),
        Some(Some(first)) => first,
    };
    let mut left_out = Vec::new();
    let mut columns = Vec::new();
    for key in first.keys().filter(|k| *k != "exit_code") {
        let (metric, source) = match known(key) {
            Some(known) => known,
            None => {
                left_out.push(format!("{key:?} is no metric plumb knows; left out"));
                continue;
            }
        };
        if let Some(k) = runs.iter().position(|run| run.get(key).is_none()) {
            left_out.push(format!("{key} is missing from measurements[{k}]; left out"));
            continue;
        }
        columns.push((key.as_str(), metric, source));
    }
    let mut samples = Samples::default();
    let mut values = Vec::with_capacity(columns.len());
    for (k, run) in runs.iter().enumerate() {
        let run = run
            .as_object()
            .ok_or_else(|| ImportError::from(format!("measurements[{k}] is not an object")))?;
        values.clear();
        for (key, metric, _) in &columns {
            let value = value(run, key, metric)
                .map_err(|e| ImportError::from(format!("measurements[{k}].{key}: {e}")))?;
            values.push((metric.clone(), value));
        }
        samples.push_run(1, &values, exit(&run["exit_code"]));
    }
    let metrics = columns
        .into_iter()
        .map(|(_, m, source)| {
            let info = MetricInfo::known(&m, source);
            (m, info)
        })
        .collect();
    Ok((samples, metrics, left_out))
}

/// The metric a hyperfine 2 key names and where its values come from.
fn known(key: &str) -> Option<(Metric, Source)> {
    let metric: Metric = key.parse().ok()?;
    metric.known_name()?;
    let source = match metric.known_shape()?.0 {
        Unit::Count => Source::HardwareCounter,
        _ => Source::Measured,
    };
    Some((metric, source))
}

/// One run's value of `metric` in plumb's unit: `{"value": x, "unit": u}`, seconds and
/// bytes as hyperfine writes them, counters without a unit.
fn value(run: &Map<String, Value>, key: &str, metric: &Metric) -> Result<u64, ImportError> {
    let v = &run[key]["value"];
    let x = v.as_f64().ok_or_else(|| format!("{v} is not a number"))?;
    let unit = run[key]["unit"].as_str();
    match (metric.known_shape().map(|(u, _)| u), unit) {
        (Some(Unit::Nanoseconds), Some("second")) => seconds(x),
        (Some(Unit::Bytes), Some("byte")) | (Some(Unit::Count), None) => {
            if x >= 0.0 && x < u64::MAX as f64 {
                Ok(x.round() as u64)
            } else {
                Err(format!("{x} is no amount a run has").into())
            }
        }
        (_, unit) => {
            let shown = unit.map_or("no unit".to_string(), |u| format!("unit {u:?}"));
            Err(format!("{shown} is not the unit of {metric}").into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_runs_exits_and_parameters() {
        let v: Value = serde_json::from_str(
            r#"{"results": [
                {"command": "sleep 0.01", "mean": 0.0105, "user": 0.001, "system": 0.0005,
                 "times": [0.0101, 0.0109], "exit_codes": [0, 0], "parameters": {"n": "1"}},
                {"command": "sleep 0.02", "times": [0.0201, 0.0203, 0.0202]}
            ]}"#,
        )
        .unwrap();
        assert!(recognises(&v));
        let (doc, _) = read(&v).unwrap();
        let b = &doc.benchmarks[0];
        assert!(b.baseline);
        assert_eq!(
            b.samples.values(&Metric::WallTime).unwrap(),
            [10_100_000, 10_900_000]
        );
        assert_eq!(b.samples.exits(), [Exit::Code(0), Exit::Code(0)]);
        assert_eq!(b.parameters["n"], "1");
        assert!(doc.benchmarks[1].samples.exits().is_empty());
        assert_eq!(doc.benchmarks[1].samples.len(), 3);
        assert!(!recognises(&serde_json::json!({"results": [{"mean": 1}]})));
    }

    #[test]
    fn schema_2_reads_each_runs_metrics_and_says_what_it_left_out() {
        let run = |wall: f64, extra: Value| {
            let mut m = serde_json::json!({
                "time_wall_clock": {"value": wall, "unit": "second"},
                "memory_peak_resident": {"value": 3043328.0, "unit": "byte"},
                "exit_code": 0
            });
            m.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            m
        };
        let v = serde_json::json!({"schema_version": 2, "results": [{
            "command": "sleep 0.01", "name": "nap",
            "parameters": {"ms": {"value": "10"}},
            "measurements": [
                run(0.0101, serde_json::json!({"instructions": {"value": 5}, "power": {"value": 1}})),
                run(0.0102, serde_json::json!({"power": {"value": 2}})),
            ]
        }]});
        assert!(recognises(&v));
        let (doc, notes) = read(&v).unwrap();
        let b = &doc.benchmarks[0];
        assert_eq!(
            (b.name.as_str(), b.parameters["ms"].as_str()),
            ("nap", "10")
        );
        assert_eq!(
            b.samples.values(&Metric::WallTime).unwrap(),
            [10_100_000, 10_200_000]
        );
        assert_eq!(
            b.samples.values(&Metric::PeakRss).unwrap(),
            [3043328, 3043328]
        );
        assert_eq!(
            b.metrics[&Metric::PeakRss].aggregate,
            plumb_model::Aggregate::Peak
        );
        assert!(b.samples.values(&Metric::Instructions).is_none());
        assert_eq!(
            notes,
            [
                "results[0] (nap): instructions is missing from measurements[1]; left out",
                "results[0] (nap): \"power\" is no metric plumb knows; left out",
            ]
        );
    }

    #[test]
    fn schema_2_refuses_what_is_not_a_run_and_a_schema_it_does_not_know() {
        let with = |m: Value| {
            serde_json::json!({"schema_version": 2, "results": [
            {"command": "c", "measurements": [{"time_wall_clock": m, "exit_code": null}]}]})
        };
        let (doc, notes) = read(&with(serde_json::json!({"value": 1.0, "unit": "byte"}))).unwrap();
        assert!(doc.benchmarks[0].function().unwrap().failure.is_some());
        assert!(
            notes[0].contains("unit \"byte\" is not the unit of wall-time"),
            "{notes:?}"
        );
        let (doc, _) = read(&with(serde_json::json!({"value": 1.0, "unit": "second"}))).unwrap();
        assert_eq!(
            doc.benchmarks[0].samples.exits(),
            [Exit::SIGNAL_NOT_RECORDED]
        );
        let (_, notes) = read(&with(serde_json::json!({"value": -1.0, "unit": "second"}))).unwrap();
        assert!(notes[0].contains("below zero"), "{notes:?}");
        let e = read(&serde_json::json!({"schema_version": 3, "results": []})).unwrap_err();
        assert!(
            e.to_string()
                .contains("is 3: plumb reads hyperfine's schemas 1 and 2"),
            "{e}"
        );
    }
}
