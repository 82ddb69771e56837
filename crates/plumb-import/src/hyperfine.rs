//! hyperfine's `--export-json`: `results[]`, each with `command`, `times` (seconds, one per
//! run), `exit_codes`, `parameters`; its `user`/`system` are means only, so they are not
//! samples and are left out.

use crate::error::ImportError;
use crate::{ForeignTool, Reading};
use plumb_model::{Benchmark, BenchmarkKind, Exit, Metric, MetricInfo, ResultDocument, Samples};
use serde_json::Value;

pub fn recognises(v: &Value) -> bool {
    v["results"].as_array().is_some_and(|r| {
        r.iter()
            .all(|e| e.get("command").is_some() && e.get("times").is_some())
    })
}

pub fn read(v: &Value) -> Result<(ResultDocument, Vec<String>), ImportError> {
    let mut reading = Reading::new(ForeignTool::Hyperfine, Default::default());
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
        let mut b = Benchmark::new(command, BenchmarkKind::Command);
        b.set_command(command.to_string());
        b.baseline = i == 0;
        if let Some(p) = r["parameters"].as_object() {
            b.parameters = p
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().map_or(v.to_string(), str::to_string)))
                .collect();
        }
        b.metrics
            .insert(Metric::WallTime, MetricInfo::measured(&Metric::WallTime));
        let filled = times(r).map(|times| {
            let codes: Option<Vec<i32>> = r["exit_codes"]
                .as_array()
                .filter(|c| c.len() == times.len())
                .map(|c| c.iter().map(|x| x.as_i64().unwrap_or(0) as i32).collect());
            b.samples = samples(&times, codes.as_deref());
        });
        reading.keep(&place, b, filled);
    }
    Ok(reading.done())
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
            None => Err(ImportError::from(format!("times[{k}] is {t}, not a number"))),
            // hyperfine subtracts its shell's spawn time, which can exceed a short
            // command's own: such a time is not a run's duration, and reading it as 0
            // would bias everything computed from it.
            Some(t) if t < 0.0 => Err(ImportError::from(format!(
                "times[{k}] is {t} (seconds), below zero: hyperfine subtracted more shell start-up than the run took; measure it again without the shell (hyperfine -N) or with plumb run"
            ))),
            Some(t) => crate::whole_ns(t * 1e9).map_err(|e| format!("times[{k}]: {e}").into()),
        })
        .collect()
}

fn samples(times_ns: &[u64], codes: Option<&[i32]>) -> Samples {
    let mut s = Samples::default();
    for (i, &t) in times_ns.iter().enumerate() {
        let wall = [(Metric::WallTime, t)];
        match codes {
            Some(c) => s.push_run(1, &wall, Exit::Code(c[i])),
            None => s.push(1, &wall),
        }
    }
    s
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
}
