//! JMH's JSON (`-rf json`): an array of runs, each with `benchmark`, `mode` (`avgt`,
//! `sample`, `thrpt`, `ss`), `forks`, `params`, and `primaryMetric` with `scoreUnit`
//! and the raw data: `rawData[fork][iteration]` (one score per measured iteration) or, in
//! sample mode, `rawDataHistogram[fork][iteration]` (`[value, count]` pairs). Each
//! iteration (each sampled call, in sample mode) is a sample, in time per operation
//! (throughput inverted), and the forks are launches: fresh JVMs, the replicates of the
//! mean's interval. A failed benchmark is absent from JMH's file.

use crate::error::ImportError;
use plumb_model::format;
use plumb_model::{
    Benchmark, BenchmarkKind, Environment, FunctionInfo, Metric, MetricInfo, ResultDocument,
};
use serde_json::Value;

/// JMH records a score per iteration, not the operations behind it, and plumb's samples
/// hold whole nanoseconds: each score is kept as a sample of this many operations, so a
/// per-operation time keeps a thousandth of a nanosecond. The count is a scale, not a
/// count of calls.
const SCALE: u64 = 1000;

pub fn recognises(v: &Value) -> bool {
    v.as_array().is_some_and(|runs| {
        !runs.is_empty()
            && runs
                .iter()
                .all(|r| r.get("jmhVersion").is_some() && r.get("primaryMetric").is_some())
    })
}

pub fn read(v: &Value) -> Result<(ResultDocument, Vec<String>), ImportError> {
    let runs = v
        .as_array()
        .ok_or_else(|| ImportError::at("", "not a list of JMH runs"))?;
    let mut reading = crate::Reading::new(crate::ForeignTool::Jmh, Environment::default());
    for (i, r) in runs.iter().enumerate() {
        let mut b = benchmark(&name(r), r);
        let mode = r["mode"].as_str().unwrap_or("");
        let place = format!("[{i}]");
        let filled = samples(&mut b, &r["primaryMetric"], mode).map(|forks| {
            let asked = r["forks"].as_u64().unwrap_or(0) as usize;
            if let Some(note) = failed_forks(&forks, asked) {
                reading.notes.push(format!("{place} ({}): {note}", b.name));
            }
            if let Some(note) = throughput_inverted(&b, &r["primaryMetric"]) {
                reading.notes.push(format!("{place} ({}): {note}", b.name));
            }
        });
        reading.keep(&place, b, filled);
    }
    Ok(reading.done())
}

/// The benchmark's name with its parameters, as JMH's table shows them:
/// `bench.Sums.sum(size=64)`, and the mode when it is not the average time.
fn name(r: &Value) -> String {
    let mut name = r["benchmark"].as_str().unwrap_or("?").to_string();
    if let Some(params) = r["params"].as_object().filter(|p| !p.is_empty()) {
        let list: Vec<String> = params
            .iter()
            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("?")))
            .collect();
        name.push_str(&format!("({})", list.join(",")));
    }
    match r["mode"].as_str() {
        Some("avgt") | None => name,
        Some(mode) => format!("{name} [{mode}]"),
    }
}

fn benchmark(name: &str, r: &Value) -> Benchmark {
    let mut b = Benchmark::new(name, BenchmarkKind::Function);
    if let Some(params) = r["params"].as_object() {
        for (k, v) in params {
            b.parameters
                .insert(k.clone(), v.as_str().unwrap_or("?").to_string());
        }
    }
    b.metrics
        .insert(Metric::WallTime, MetricInfo::measured(&Metric::WallTime));
    b
}

/// Nanoseconds per operation from a score in `unit`: a time per operation scaled, a
/// throughput inverted.
fn per_op_ns(score: f64, unit: &str) -> Result<f64, ImportError> {
    let time = |u: &str| match u {
        "ns" => Some(1.0),
        "us" => Some(1e3),
        "ms" => Some(1e6),
        "s" => Some(1e9),
        "min" => Some(6e10),
        _ => None,
    };
    let bad = || {
        ImportError::from(format!(
            "unit {unit:?} is neither a time per operation nor operations per time"
        ))
    };
    match unit.split_once('/') {
        Some((t, "op")) => time(t).map(|k| score * k).ok_or_else(bad),
        Some(("ops", t)) if score > 0.0 => time(t).map(|k| k / score).ok_or_else(bad),
        Some(("ops", _)) => Err(ImportError::from(format!(
            "a throughput of {score}: no time per operation"
        ))),
        _ => Err(bad()),
    }
}

/// In throughput mode, how plumb's mean stands to JMH's score: plumb keeps each
/// iteration's time per operation (1 / its throughput) and averages those; JMH averages
/// the throughputs. A mean of inverses is not the inverse of a mean when iterations
/// differ, so the two are said side by side for a user checking one against the other.
fn throughput_inverted(b: &Benchmark, m: &Value) -> Option<String> {
    let unit = m["scoreUnit"].as_str()?;
    if !unit.starts_with("ops/") {
        return None;
    }
    let score = m["score"].as_f64()?;
    let jmh = per_op_ns(score, unit).ok()?;
    let times = b.per_op(&Metric::WallTime);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    Some(format!(
        "throughput: plumb's figures are each iteration's time per operation; their mean, {}, is {} from JMH's score of {} {unit} inverted ({}): a mean of inverses is not the inverse of the mean when iterations differ",
        format::time_ns(mean),
        format::signed_percent(mean / jmh - 1.0),
        format::number(score),
        format::time_ns(jmh),
    ))
}

/// What is said of forks that measured nothing (each fork's iteration count given, and
/// the forks JMH was asked for): a fork that failed leaves the result of the others.
fn failed_forks(per_fork: &[usize], asked: usize) -> Option<String> {
    let empty: Vec<String> = (per_fork.iter().enumerate())
        .filter(|(_, &n)| n == 0)
        .map(|(f, _)| (f + 1).to_string())
        .collect();
    let measured = per_fork.len() - empty.len();
    if !empty.is_empty() {
        return Some(format!(
            "fork {} measured nothing (it failed): read from the other {measured}",
            empty.join(", ")
        ));
    }
    (asked > per_fork.len()).then(|| {
        format!(
            "{asked} forks asked, {} in the file (a fork failed): read from those",
            per_fork.len()
        )
    })
}

/// Every iteration (every sampled call) of every fork as a sample, the forks as launches
/// (a fork that measured nothing left out); each fork's count of iterations is returned.
fn samples(b: &mut Benchmark, m: &Value, mode: &str) -> Result<Vec<usize>, ImportError> {
    let unit = m["scoreUnit"].as_str().ok_or("no \"scoreUnit\"")?;
    let (key, histogram) = if mode == "sample" {
        ("rawDataHistogram", true)
    } else {
        ("rawData", false)
    };
    let forks = m[key]
        .as_array()
        .filter(|f| !f.is_empty())
        .ok_or(ImportError::from(format!(
            "no \"{key}\" (run with -Djmh.json.rawData=false?)"
        )))?;
    let mut per_fork = Vec::new();
    let mut values: Vec<f64> = Vec::new();
    for (f, fork) in forks.iter().enumerate() {
        let before = values.len();
        for (i, it) in fork.as_array().into_iter().flatten().enumerate() {
            let place = format!("{key}[{f}][{i}]");
            if histogram {
                for pair in it.as_array().into_iter().flatten() {
                    let (v, n) = (pair[0].as_f64(), pair[1].as_u64());
                    let (Some(v), Some(n)) = (v, n) else {
                        return Err(ImportError::from(format!(
                            "{place}: {pair} is not a [value, count] pair"
                        )));
                    };
                    values.extend(std::iter::repeat_n(v, n as usize));
                }
            } else {
                values.push(
                    it.as_f64()
                        .ok_or(ImportError::from(format!("{place} is {it}, not a score")))?,
                );
            }
        }
        per_fork.push(values.len() - before);
    }
    let mut ns = Vec::with_capacity(values.len());
    for v in values {
        let x = per_op_ns(v, unit)?;
        if !(x.is_finite() && x >= 0.0) {
            return Err(ImportError::from(format!(
                "a score of {v} {unit} is not a time"
            )));
        }
        ns.push(x);
    }
    if ns.is_empty() {
        return Err("no measured iterations".into());
    }
    for x in ns {
        b.samples.push(
            SCALE,
            &[(Metric::WallTime, crate::whole_ns(x * SCALE as f64)?)],
        );
    }
    let launches: Vec<usize> = per_fork.iter().copied().filter(|&n| n > 0).collect();
    if launches.len() > 1 {
        b.set_function(FunctionInfo {
            launch_sample_counts: launches,
            ..FunctionInfo::default()
        });
    }
    Ok(per_fork)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Value {
        let path = format!("{}/tests/fixtures/jmh/{name}", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn iterations_are_samples_and_forks_are_launches() {
        let v = fixture("jmh-avgt.json");
        assert!(recognises(&v));
        let (doc, notes) = read(&v).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        let b = doc.benchmark("bench.Sums.sum(size=64)").unwrap();
        // rawData [[18.995391408211923, 16.42…, 16.39…], [17.43…, 16.46…, 16.47…]] ns/op.
        assert_eq!(b.samples.len(), 6);
        assert_eq!(b.samples.values(&Metric::WallTime).unwrap()[0], 18_995);
        assert_eq!(b.function().unwrap().launch_sample_counts, [3, 3]);
        assert_eq!(b.parameters["size"], "64");
    }

    #[test]
    fn throughput_is_inverted_and_a_histogram_is_every_sampled_call() {
        let (doc, _) = read(&fixture("jmh-thrpt.json")).unwrap();
        let b = doc.benchmark("bench.Sums.sum(size=64) [thrpt]").unwrap();
        // 66716.60211282008 ops/ms is 1e6 / 66716.6… = 14.989 ns per operation.
        assert_eq!(b.samples.values(&Metric::WallTime).unwrap()[0], 14_989);
        let (doc, _) = read(&fixture("jmh-sample.json")).unwrap();
        let b = doc.benchmark("bench.Sums.sum(size=64) [sample]").unwrap();
        let v = fixture("jmh-sample.json");
        let calls: u64 = v[0]["primaryMetric"]["rawDataHistogram"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| f.as_array().unwrap())
            .flat_map(|i| i.as_array().unwrap())
            .map(|p| p[1].as_u64().unwrap())
            .sum();
        assert_eq!(b.samples.len() as u64, calls);
        assert_eq!(b.samples.values(&Metric::WallTime).unwrap()[0], 30_000);
    }

    #[test]
    fn a_bad_run_fails_alone() {
        let mut v = fixture("jmh-avgt.json");
        v[1]["primaryMetric"]["scoreUnit"] = Value::from("furlongs");
        let (doc, notes) = read(&v).unwrap();
        assert_eq!(
            doc.benchmark("bench.Sums.sum(size=64)")
                .unwrap()
                .samples
                .len(),
            6
        );
        assert!(notes[0].contains("unit \"furlongs\""), "{notes:?}");
        let f = doc.benchmarks[1]
            .function()
            .unwrap()
            .failure
            .clone()
            .unwrap();
        assert!(f.starts_with("not imported:"), "{f}");
    }
}
