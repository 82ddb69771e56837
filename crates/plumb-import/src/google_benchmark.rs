//! Google Benchmark's `--benchmark_format=json`: `context` (host, CPUs, caches) and
//! `benchmarks[]`. Each run of a repetition (`run_type` "iteration") is one sample of its
//! `iterations`; aggregates (mean, median, stddev) are skipped, as plumb computes its own.
//! `real_time` and `cpu_time` are per iteration in `time_unit`.

use crate::error::ImportError;
use crate::{ForeignTool, Reading};
use plumb_model::quantity::ByteSize;
use plumb_model::{
    Benchmark, BenchmarkKind, CacheLevel, Environment, Metric, MetricInfo, ResultDocument,
};
use serde_json::Value;

pub fn recognises(v: &Value) -> bool {
    v.get("context").is_some()
        && v["benchmarks"].as_array().is_some_and(|b| {
            b.iter()
                .all(|e| e.get("name").is_some() && e.get("real_time").is_some())
        })
}

fn unit_ns(u: &str) -> Result<f64, ImportError> {
    match u {
        "ns" => Ok(1.0),
        "us" => Ok(1e3),
        "ms" => Ok(1e6),
        "s" => Ok(1e9),
        other => Err(ImportError::from(format!("unknown time_unit {other:?}"))),
    }
}

/// The keys of a repetition's row that are read or describe it; any other is a rate
/// (`bytes_per_second`, `items_per_second`) or a user counter, left out and said.
const ROW_KEYS: [&str; 17] = [
    "name",
    "family_index",
    "per_family_instance_index",
    "run_name",
    "run_type",
    "repetitions",
    "repetition_index",
    "threads",
    "iterations",
    "real_time",
    "cpu_time",
    "time_unit",
    "error_occurred",
    "error_message",
    "label",
    "aggregate_name",
    "aggregate_unit",
];

/// What is said of the figures left out of every row: the rates follow from the time kept
/// and an amount per iteration the file does not give; a user counter's kind (a rate, an
/// average per iteration, a total) is not in the file, so no reading of it is sure.
fn left_out(rates: &[String], counters: &[String]) -> Option<String> {
    let mut parts = Vec::new();
    if !rates.is_empty() {
        parts.push(format!(
            "{} (rates: the time per iteration is kept, the bytes or items per iteration are not in the file)",
            rates.join(", ")
        ));
    }
    if !counters.is_empty() {
        parts.push(format!(
            "user counters {} (the file does not say whether each is a rate, a mean per iteration or a total)",
            counters.join(", ")
        ));
    }
    (!parts.is_empty()).then(|| format!("left out: {}", parts.join("; ")))
}

/// Sorts a row's keys beyond `ROW_KEYS` into rates and user counters, each named once.
fn extra_keys(row: &Value, rates: &mut Vec<String>, counters: &mut Vec<String>) {
    let keys = row.as_object().into_iter().flatten().map(|(k, _)| k);
    for key in keys.filter(|k| !ROW_KEYS.contains(&k.as_str())) {
        let list = match key.ends_with("_per_second") {
            true => &mut *rates,
            false => &mut *counters,
        };
        if !list.contains(key) {
            list.push(key.clone());
        }
    }
}

pub fn read(v: &Value) -> Result<(ResultDocument, Vec<String>), ImportError> {
    let mut reading = Reading::new(ForeignTool::GoogleBenchmark, environment(&v["context"]));
    let entries = v["benchmarks"]
        .as_array()
        .ok_or_else(|| ImportError::at("", "no \"benchmarks\""))?;
    // Each name's repetitions, with where it was first found and whether all were read.
    let mut built: Vec<(String, Benchmark, Result<(), ImportError>)> = Vec::new();
    let (mut rates, mut counters) = (Vec::new(), Vec::new());
    for (i, e) in entries.iter().enumerate() {
        if e["run_type"].as_str() == Some("aggregate") {
            continue;
        }
        extra_keys(e, &mut rates, &mut counters);
        let place = format!("benchmarks[{i}]");
        let Some(name) = e["run_name"].as_str().or(e["name"].as_str()) else {
            reading.notes.push(format!("{place}: no name; left out"));
            continue;
        };
        let k = match built.iter().position(|(_, b, _)| b.name == name) {
            Some(k) => k,
            None => {
                built.push((place.clone(), new_benchmark(name), Ok(())));
                built.len() - 1
            }
        };
        let (first, b, filled) = &mut built[k];
        if filled.is_ok() {
            // A later repetition names its own row; the first is the benchmark's place.
            let at = |why: ImportError| match *first == place {
                true => why,
                false => ImportError::from(format!("{place}: {why}")),
            };
            *filled = repetition(b, e).map_err(at);
        }
    }
    for (place, b, filled) in built {
        reading.keep(&place, b, filled);
    }
    reading.notes.extend(left_out(&rates, &counters));
    Ok(reading.done())
}

/// One repetition's row as a sample of its iterations.
fn repetition(b: &mut Benchmark, e: &Value) -> Result<(), ImportError> {
    if e["error_occurred"].as_bool() == Some(true) {
        let message = e["error_message"].as_str().unwrap_or("no message");
        return Err(ImportError::from(format!(
            "the benchmark reported an error: {message}"
        )));
    }
    let iterations = e["iterations"]
        .as_u64()
        .filter(|&n| n > 0)
        .ok_or("\"iterations\" is not a positive count")?;
    let per = unit_ns(e["time_unit"].as_str().unwrap_or("ns"))?;
    let total = |key: &str| -> Result<u64, ImportError> {
        let t = e[key]
            .as_f64()
            .filter(|t| t.is_finite() && *t >= 0.0)
            .ok_or(ImportError::from(format!(
                "\"{key}\" is {}, not a time",
                e[key]
            )))?;
        crate::whole_ns(t * per * iterations as f64).map_err(|e| format!("\"{key}\": {e}").into())
    };
    let values = [
        (Metric::WallTime, total("real_time")?),
        (Metric::CpuTime, total("cpu_time")?),
    ];
    b.samples.push(iterations, &values);
    Ok(())
}

/// A benchmark of the file, none the baseline: a Google Benchmark export holds unrelated
/// benchmarks (`BM_Sort/1024` beside `BM_StrFind/4096`), and a ratio of one to another
/// would be read as a verdict. `plumb compare` compares two files benchmark by benchmark.
fn new_benchmark(name: &str) -> Benchmark {
    let mut b = Benchmark::new(name, BenchmarkKind::Function);
    b.metrics
        .insert(Metric::WallTime, MetricInfo::measured(&Metric::WallTime));
    b.metrics
        .insert(Metric::CpuTime, MetricInfo::measured(&Metric::CpuTime));
    b
}

/// What the context records of the machine; the rest stays unknown.
fn environment(c: &Value) -> Environment {
    Environment {
        hostname: c["host_name"].as_str().map(str::to_string),
        threads: c["num_cpus"].as_u64().map(|n| n as usize),
        cpu_mhz: c["mhz_per_cpu"].as_f64(),
        caches: c["caches"]
            .as_array()
            .map(|cs| {
                cs.iter()
                    .filter_map(|k| {
                        Some(CacheLevel {
                            level: k["level"].as_u64()? as u8,
                            kind: k["type"].as_str()?.to_string(),
                            size: ByteSize(k["size"].as_u64()?),
                            shared_by: k["num_sharing"].as_u64().map(|n| n as usize),
                            ways: None,
                            line_size: None,
                        })
                    })
                    .collect()
            })
            .unwrap_or_default(),
        ..Environment::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXPORT: &str = r#"{
      "context": {"host_name": "box", "num_cpus": 2, "mhz_per_cpu": 2994,
                  "caches": [{"type": "Data", "level": 1, "size": 32768, "num_sharing": 1}]},
      "benchmarks": [
        {"name": "BM_sort/8", "run_name": "BM_sort/8", "run_type": "iteration",
         "repetitions": 2, "repetition_index": 0, "iterations": 1000,
         "real_time": 12.5, "cpu_time": 12.0, "time_unit": "us"},
        {"name": "BM_sort/8", "run_name": "BM_sort/8", "run_type": "iteration",
         "repetitions": 2, "repetition_index": 1, "iterations": 1000,
         "real_time": 13.5, "cpu_time": 13.0, "time_unit": "us"},
        {"name": "BM_sort/8_mean", "run_name": "BM_sort/8", "run_type": "aggregate",
         "aggregate_name": "mean", "iterations": 2, "real_time": 13.0, "cpu_time": 12.5,
         "time_unit": "us"}
      ]}"#;

    #[test]
    fn repetitions_are_samples_and_aggregates_are_skipped() {
        let v: Value = serde_json::from_str(EXPORT).unwrap();
        assert!(recognises(&v));
        let (doc, _) = read(&v).unwrap();
        assert_eq!(doc.benchmarks.len(), 1);
        let b = &doc.benchmarks[0];
        assert_eq!(b.samples.iterations(), [1000, 1000]);
        // 12.5 µs per iteration × 1000 iterations.
        assert_eq!(
            b.samples.values(&Metric::WallTime).unwrap(),
            [12_500_000, 13_500_000]
        );
        assert_eq!(b.times_ns(), [12_500.0, 13_500.0]);
        assert_eq!(doc.environment.threads, Some(2));
        assert_eq!(doc.environment.caches[0].size, ByteSize(32768));
        assert_eq!(doc.environment.kernel, None, "unknown, not guessed");
    }
}
