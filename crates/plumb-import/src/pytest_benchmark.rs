//! pytest-benchmark's JSON (`--benchmark-json`, or a run saved with `--benchmark-save`):
//! `machine_info`, and `benchmarks[]` each with `stats`. `stats.data` holds each round's
//! time per iteration in seconds (always in `--benchmark-json`; in a saved run only with
//! `--benchmark-save-data`), and `stats.iterations` the iterations of a round: each round
//! is one sample. A benchmark saved without its data is a summary only: its rounds, mean,
//! standard deviation, median, minimum and maximum are kept as pytest-benchmark's summary.
//! pytest-benchmark leaves failed benchmarks out of its file.

use crate::error::ImportError;
use plumb_model::{Benchmark, BenchmarkKind, Environment, Metric, MetricInfo, ResultDocument};
use serde_json::Value;

pub fn recognises(v: &Value) -> bool {
    v.get("machine_info").is_some()
        && v["benchmarks"].as_array().is_some_and(|b| {
            b.iter()
                .all(|e| e.get("stats").is_some() && e.get("fullname").is_some())
        })
}

pub fn read(v: &Value) -> Result<(ResultDocument, Vec<String>), ImportError> {
    let entries = v["benchmarks"]
        .as_array()
        .ok_or_else(|| ImportError::at("", "no \"benchmarks\" list"))?;
    let machine = environment(&v["machine_info"]);
    let mut reading = crate::Reading::new(crate::ForeignTool::PytestBenchmark, machine);
    // Its commit_info: the commit's id ("unversioned" outside git) and time.
    let commit = &v["commit_info"];
    let time = commit["time"].as_str().and_then(|t| t.parse().ok());
    let id = commit["id"].as_str().unwrap_or_default();
    reading.doc.commit = plumb_model::RecordedCommit::of(id, time);
    for (i, e) in entries.iter().enumerate() {
        let place = format!("benchmarks[{i}]");
        let Some(name) = e["fullname"].as_str() else {
            reading
                .notes
                .push(format!("{place}: no \"fullname\"; left out"));
            continue;
        };
        let mut b = benchmark(name, e);
        let filled = samples(&mut b, &e["stats"]);
        reading.keep(&place, b, filled);
    }
    Ok(reading.done())
}

fn benchmark(name: &str, e: &Value) -> Benchmark {
    let mut b = Benchmark::new(name, BenchmarkKind::Function);
    b.group = e["group"].as_str().map(str::to_string);
    if let Some(params) = e["params"].as_object() {
        for (k, v) in params {
            let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
            b.parameters.insert(k.clone(), v);
        }
    }
    b.metrics
        .insert(Metric::WallTime, MetricInfo::measured(&Metric::WallTime));
    b
}

/// Each round of `stats.data` as a sample of `stats.iterations`, in whole nanoseconds;
/// without `data`, the summary pytest-benchmark keeps.
fn samples(b: &mut Benchmark, stats: &Value) -> Result<(), ImportError> {
    let Some(data) = stats["data"].as_array() else {
        return summary(b, stats);
    };
    let iterations = stats["iterations"]
        .as_u64()
        .filter(|&n| n > 0)
        .ok_or("\"iterations\" is not a positive count")?;
    if data.is_empty() {
        return Err("no rounds in \"data\"".into());
    }
    let mut totals = Vec::with_capacity(data.len());
    for (i, d) in data.iter().enumerate() {
        match d.as_f64() {
            Some(s) if s.is_finite() && s >= 0.0 => totals.push(
                crate::whole_ns(s * 1e9 * iterations as f64)
                    .map_err(|e| format!("data[{i}]: {e}"))?,
            ),
            _ => {
                return Err(ImportError::from(format!(
                    "data[{i}] is {d}, not a time in seconds"
                )))
            }
        }
    }
    for t in totals {
        b.samples.push(iterations, &[(Metric::WallTime, t)]);
    }
    Ok(())
}

/// A run saved without `--benchmark-save-data`: the statistics of its rounds, in seconds.
fn summary(b: &mut Benchmark, stats: &Value) -> Result<(), ImportError> {
    let keys = crate::SummaryKeys {
        place: "stats",
        scale: 1e9,
        keys: ["rounds", "mean", "median", "stddev", "min", "max"],
    };
    b.reported.insert(Metric::WallTime, keys.read(stats)?);
    Ok(())
}

/// What `machine_info` records of the machine; the rest stays unknown.
fn environment(m: &Value) -> Environment {
    let text = |v: &Value| v.as_str().filter(|s| !s.is_empty()).map(str::to_string);
    Environment {
        hostname: text(&m["node"]),
        os: text(&m["system"]),
        kernel: text(&m["release"]),
        arch: text(&m["machine"]),
        cpu_model: text(&m["cpu"]["brand_raw"]),
        threads: m["cpu"]["count"].as_u64().map(|n| n as usize),
        ..Environment::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Value {
        let path = format!(
            "{}/tests/fixtures/pytest/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn each_round_is_a_sample() {
        let v = fixture("pytest-before.json");
        assert!(recognises(&v));
        let (doc, notes) = read(&v).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        let b = doc.benchmark("test_sums.py::test_sum[64]").unwrap();
        // stats.rounds 377, iterations 1, data[0] = 2.544002200011164e-06 s.
        assert_eq!(b.samples.len(), 377);
        assert_eq!(b.samples.values(&Metric::WallTime).unwrap()[0], 2544);
        assert_eq!(b.parameters["size"], "64");
        assert_eq!(doc.environment.cpu_model.as_deref(), Some("AMD EPYC"));
    }

    #[test]
    fn a_summary_only_is_kept_as_its_summary_and_a_bad_round_fails_alone() {
        let (doc, notes) = read(&fixture("pytest-saved-summary.json")).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        let b = doc.benchmark("test_sums.py::test_sum[1024]").unwrap();
        assert!(b.samples.is_empty());
        // stats: rounds 61, mean 3.037760683075815e-05 s, stddev 7.576011583485731e-06 s.
        let r = &b.reported[&Metric::WallTime];
        assert_eq!(r.n, Some(61));
        assert!((r.mean.unwrap() - 30377.60683075815).abs() < 1e-6);
        assert!((r.std_dev.unwrap() - 7576.011583485731).abs() < 1e-6);
        assert!((r.max.unwrap() - 87740.00161793083).abs() < 1e-6);
        let mut v = fixture("pytest-before.json");
        v["benchmarks"][1]["stats"]["data"][4] = Value::from(-1.0);
        v["benchmarks"][2]["fullname"] = v["benchmarks"][0]["fullname"].clone();
        let (doc, notes) = read(&v).unwrap();
        assert!(
            notes[0].starts_with("benchmarks[1] (test_sums.py::test_sum[1024]): data[4] is -1.0"),
            "{notes:?}"
        );
        assert!(notes[1].contains("a second benchmark named"), "{notes:?}");
        assert_eq!(doc.benchmarks.len(), 2);
        assert_eq!(doc.benchmarks[0].samples.len(), 377);
    }
}
