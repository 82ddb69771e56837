//! BenchmarkDotNet's full JSON export (`*-report-full.json`, JsonExporter.Full):
//! `HostEnvironmentInfo`, and `Benchmarks[]` each with its `Measurements[]`
//! (`IterationMode`, `IterationStage`, `LaunchIndex`, `Operations`, `Nanoseconds`, the
//! total over the operations). The result phase (`Workload` `Result`: BenchmarkDotNet's
//! actual iterations with the overhead subtracted and its outliers removed) is read, each
//! iteration a sample, and its launches (`LaunchIndex`, fresh processes) as launches. A
//! brief export has no measurements: its `Statistics` (N, mean, standard deviation,
//! median, minimum, maximum, in nanoseconds per operation) are kept as BenchmarkDotNet's
//! summary. A benchmark that failed has `Statistics` null and no result phase.

use crate::error::ImportError;
use plumb_model::{
    Benchmark, BenchmarkKind, Environment, FunctionInfo, Metric, MetricInfo, ResultDocument,
};
use serde_json::Value;

pub fn recognises(v: &Value) -> bool {
    v.get("HostEnvironmentInfo").is_some() && v["Benchmarks"].is_array()
}

pub fn read(v: &Value) -> Result<(ResultDocument, Vec<String>), ImportError> {
    let entries = v["Benchmarks"]
        .as_array()
        .ok_or_else(|| ImportError::at("", "no \"Benchmarks\" list"))?;
    let machine = environment(&v["HostEnvironmentInfo"]);
    let mut reading = crate::Reading::new(crate::ForeignTool::BenchmarkDotNet, machine);
    for (i, e) in entries.iter().enumerate() {
        let place = format!("Benchmarks[{i}]");
        let Some(name) = name(e) else {
            let why = "neither \"FullName\" nor \"Type\" and \"Method\"; left out";
            reading.notes.push(format!("{place}: {why}"));
            continue;
        };
        let mut b = Benchmark::new(&name, BenchmarkKind::Function);
        for pair in e["Parameters"].as_str().unwrap_or("").split('&') {
            if let Some((k, val)) = pair.split_once('=') {
                b.parameters.insert(k.to_string(), val.to_string());
            }
        }
        b.metrics
            .insert(Metric::WallTime, MetricInfo::measured(&Metric::WallTime));
        let filled = result_phase(&mut b, e);
        reading.keep(&place, b, filled);
    }
    Ok(reading.done())
}

/// `FullName`, or (before BenchmarkDotNet wrote it) the namespace, type and method with
/// the parameters.
fn name(e: &Value) -> Option<String> {
    if let Some(full) = e["FullName"].as_str() {
        return Some(full.to_string());
    }
    let (t, m) = (e["Type"].as_str()?, e["Method"].as_str()?);
    let mut name = match e["Namespace"].as_str() {
        Some(ns) => format!("{ns}.{t}.{m}"),
        None => format!("{t}.{m}"),
    };
    if let Some(p) = e["Parameters"].as_str().filter(|p| !p.is_empty()) {
        name.push_str(&format!("({p})"));
    }
    Some(name)
}

/// The `Workload` `Result` measurements as samples, grouped by launch.
fn result_phase(b: &mut Benchmark, e: &Value) -> Result<(), ImportError> {
    let Some(all) = e["Measurements"].as_array() else {
        return statistics(b, &e["Statistics"]);
    };
    let mut launches: Vec<(u64, usize)> = Vec::new();
    for (i, m) in all.iter().enumerate() {
        if m["IterationMode"] != "Workload" || m["IterationStage"] != "Result" {
            continue;
        }
        let ops = m["Operations"].as_u64().filter(|&n| n > 0);
        let ns = m["Nanoseconds"]
            .as_f64()
            .filter(|t| t.is_finite() && *t >= 0.0);
        let (Some(ops), Some(ns)) = (ops, ns) else {
            return Err(ImportError::from(format!(
                "Measurements[{i}]: Operations {} and Nanoseconds {} are not a measurement",
                m["Operations"], m["Nanoseconds"]
            )));
        };
        let launch = m["LaunchIndex"].as_u64().unwrap_or(1);
        match launches.last_mut() {
            Some((l, n)) if *l == launch => *n += 1,
            _ => launches.push((launch, 1)),
        }
        b.samples
            .push(ops, &[(Metric::WallTime, crate::whole_ns(ns)?)]);
    }
    if b.samples.is_empty() {
        return Err(if e["Statistics"].is_null() {
            "no result measurements: the benchmark failed in BenchmarkDotNet (its Statistics are null)".into()
        } else {
            "no result measurements".into()
        });
    }
    if launches.len() > 1 {
        b.set_function(FunctionInfo {
            launch_sample_counts: launches.into_iter().map(|(_, n)| n).collect(),
            ..FunctionInfo::default()
        });
    }
    Ok(())
}

/// A brief export's `Statistics`, in nanoseconds per operation, as the summary.
fn statistics(b: &mut Benchmark, st: &Value) -> Result<(), ImportError> {
    if st.is_null() {
        return Err(
            "no measurements and no statistics: the benchmark failed in BenchmarkDotNet".into(),
        );
    }
    let keys = crate::SummaryKeys {
        place: "Statistics",
        scale: 1.0,
        keys: ["N", "Mean", "Median", "StandardDeviation", "Min", "Max"],
    };
    let summary = keys.read(st)?;
    b.reported.insert(Metric::WallTime, summary);
    Ok(())
}

/// What `HostEnvironmentInfo` records of the machine; the rest stays unknown.
fn environment(h: &Value) -> Environment {
    let text = |v: &Value| v.as_str().map(str::to_string);
    Environment {
        os: text(&h["OsVersion"]),
        arch: text(&h["Architecture"]),
        cpu_model: text(&h["ProcessorName"]),
        cores: h["PhysicalCoreCount"].as_u64().map(|n| n as usize),
        threads: h["LogicalCoreCount"].as_u64().map(|n| n as usize),
        ..Environment::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Value {
        let path = format!("{}/tests/fixtures/bdn/{name}", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn the_result_phase_is_the_samples() {
        let v = fixture("memory-report-full.json");
        assert!(recognises(&v));
        let (doc, notes) = read(&v).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        let b = doc
            .benchmark("BenchmarkDotNet.Samples.Memory.AllocEmptyList")
            .unwrap();
        // The first Workload/Result row: 8388608 operations in 640542200 ns, which is
        // Statistics.OriginalValues[0] = 76.35858058929443 ns per operation.
        let (ops, ns) = (
            b.samples.iterations()[0],
            b.samples.values(&Metric::WallTime).unwrap()[0],
        );
        assert_eq!((ops, ns), (8_388_608, 640_542_200));
        let original = v["Benchmarks"][0]["Statistics"]["OriginalValues"]
            .as_array()
            .unwrap();
        assert_eq!(b.samples.len(), original.len());
        assert!((ns as f64 / ops as f64 - 76.35858058929443).abs() < 1e-9);
    }

    #[test]
    fn a_brief_export_is_a_summary_and_a_failed_benchmark_is_said() {
        let (doc, notes) = read(&fixture("brief-no-measurements.json")).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        // Statistics: N 20, Mean 10362283.085796878, StandardDeviation 45702.118369205156.
        let r = &doc.benchmarks[0].reported[&Metric::WallTime];
        assert_eq!(r.n, Some(20));
        assert_eq!(r.mean, Some(10362283.085796878));
        assert_eq!(r.std_dev, Some(45702.118369205156));
        let mut v = fixture("memory-report-full.json");
        v["Benchmarks"][1]["Statistics"] = Value::Null;
        let rows = v["Benchmarks"][1]["Measurements"].as_array_mut().unwrap();
        rows.retain(|m| m["IterationStage"] != "Result");
        let (doc, notes) = read(&v).unwrap();
        assert!(notes[0].contains("its Statistics are null"), "{notes:?}");
        assert!(!doc.benchmarks[0].samples.is_empty());
    }
}
