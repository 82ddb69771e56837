//! airspeed velocity (asv) result files (`results/<machine>/<commit>-<env>.json`, format
//! version 2): each benchmark a row of the columns `result_columns` names, each parameter
//! combination (the product of `params`, the first slowest) one entry of its lists. asv
//! keeps each combination's samples only with `--record-samples` (each the time of one
//! call, averaged over `stats_number` calls); without them, its summary: the median,
//! asv's own 99 % interval of it, and the sample count. A `null` result failed, a NaN one
//! was skipped by the benchmark. What each measures comes from `results/benchmarks.json`
//! (`type` and `unit`) when it is beside the results, else from the name's prefix
//! (`time_` in seconds, `mem_` and `peakmem_` in bytes, `track_` a value of its own).
//! asv writes NaN and Infinity as bare JSON literals; they are read as strings.

use crate::error::ImportError;
use crate::{ForeignTool, Reading};
use plumb_model::quantity::Confidence;
use plumb_model::{
    Benchmark, BenchmarkKind, Environment, FunctionInfo, Metric, MetricInfo, ReportedInterval,
    ReportedStatistic, ReportedSummary, ResultDocument, Source, Unit,
};
use serde_json::Value;

/// `text` with the bare literals `NaN`, `Infinity` and `-Infinity` outside strings
/// turned into the strings "NaN", "Infinity", "-Infinity", so a JSON parser takes it.
pub fn literals_as_strings(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            in_string = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else if c == '"' {
            in_string = true;
        } else if let Some(lit) = ["NaN", "-Infinity", "Infinity"]
            .into_iter()
            .find(|l| rest.starts_with(l))
        {
            out.push('"');
            out.push_str(lit);
            out.push('"');
            rest = &rest[lit.len()..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// An object with asv's `result_columns` and `results`.
pub fn recognises(v: &Value) -> bool {
    v.get("result_columns").is_some_and(Value::is_array)
        && v.get("results").is_some_and(Value::is_object)
}

/// What `benchmarks.json` (or the name) says a benchmark measures.
struct Kind {
    metric: Metric,
    info: MetricInfo,
    /// Nanoseconds per unit of the file's values (1e9 for seconds), or 1.
    scale: f64,
    param_names: Vec<String>,
}

fn kind(name: &str, described: Option<&Value>) -> Kind {
    let last = name.rsplit('.').next().unwrap_or(name);
    let param_names = described
        .and_then(|d| d["param_names"].as_array())
        .map(|a| {
            a.iter()
                .filter_map(|p| p.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    // benchmarks.json's type, else the name's prefix, as asv itself finds it.
    let by_name = ["timeraw", "time", "peakmem", "mem", "track"]
        .into_iter()
        .find(|p| last.starts_with(&format!("{p}_")))
        .map(|p| match p {
            "timeraw" | "time" => "time",
            "peakmem" => "peakmemory",
            "mem" => "memory",
            other => other,
        });
    let kind = described.and_then(|d| d["type"].as_str()).or(by_name);
    let named = |metric: &str, unit| {
        let info = MetricInfo {
            unit,
            source: Source::Measured,
            aggregate: plumb_model::Aggregate::Sum,
        };
        (Metric::Named(metric.into()), info, 1.0)
    };
    let (metric, info, scale) = match kind {
        Some("time") => {
            let info = MetricInfo::known(&Metric::WallTime, Source::Measured);
            (Metric::WallTime, info, 1e9)
        }
        Some("memory") => named("memory", Unit::Bytes),
        Some("peakmemory") => named("peak-memory", Unit::Bytes),
        _ => named("tracked", Unit::Count),
    };
    Kind {
        metric,
        info,
        scale,
        param_names,
    }
}

/// Reads an asv result; `benchmarks` is `benchmarks.json`, when it was found.
pub fn read(
    v: &Value,
    benchmarks: Option<&Value>,
) -> Result<(ResultDocument, Vec<String>), ImportError> {
    match v["version"].as_u64() {
        Some(2) => {}
        other => {
            let version = other.map_or("no".to_string(), |n| n.to_string());
            return Err(ImportError::at(
                "version",
                format!("asv result format version {version}; plumb reads version 2 (asv 0.5 and later)"),
            ));
        }
    }
    let columns: Vec<&str> = v["result_columns"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut reading = Reading::new(ForeignTool::Asv, Environment::default());
    // asv records the commit measured and that commit's date (milliseconds since 1970).
    let date = v["date"]
        .as_f64()
        .map(|ms| plumb_model::quantity::Timestamp::from_unix_secs_f64(ms / 1e3));
    let sha = v["commit_hash"].as_str().unwrap_or_default();
    reading.doc.commit = plumb_model::RecordedCommit::of(sha, date);
    if benchmarks.is_none() {
        reading.notes.push(
            "no benchmarks.json beside it: units and parameter names taken from the names".into(),
        );
    }
    let results = v["results"].as_object().into_iter().flatten();
    for (name, row) in results {
        if !row.is_array() {
            let note = format!("results[{name:?}]: {row} is not a list of asv's result columns (a malformed file, not the benchmark's failure); left out");
            reading.notes.push(note);
            continue;
        }
        let col = |key: &str| {
            let i = columns.iter().position(|c| *c == key)?;
            row.get(i).filter(|x| !x.is_null())
        };
        let k = kind(name, benchmarks.and_then(|b| b.get(name)));
        for combo in combinations(name, col("params"), &k.param_names) {
            read_combination(&mut reading, name, &combo, &k, &col);
        }
    }
    Ok(reading.done())
}

/// One parameter combination: its index in the lists, its name and parameters.
struct Combination {
    index: usize,
    name: String,
    parameters: Vec<(String, String)>,
}

/// The product of the parameter lists, the first slowest, as asv orders its lists.
fn combinations(name: &str, params: Option<&Value>, names: &[String]) -> Vec<Combination> {
    let lists: Vec<Vec<String>> = params
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|l| {
            let values = l.as_array().into_iter().flatten();
            values
                .map(|x| x.as_str().map_or(x.to_string(), String::from))
                .collect()
        })
        .collect();
    let mut combos = vec![Vec::<String>::new()];
    for list in &lists {
        combos = combos
            .iter()
            .flat_map(|c| {
                list.iter()
                    .map(move |x| [c.clone(), vec![x.clone()]].concat())
            })
            .collect();
    }
    combos
        .into_iter()
        .enumerate()
        .map(|(index, values)| {
            let parameters: Vec<(String, String)> = values
                .into_iter()
                .enumerate()
                .map(|(i, v)| {
                    let key = names.get(i).cloned().unwrap_or(format!("param{}", i + 1));
                    (key, v)
                })
                .collect();
            let suffix: String = parameters
                .iter()
                .map(|(k, v)| format!("/{k}={v}"))
                .collect();
            Combination {
                index,
                name: format!("{name}{suffix}"),
                parameters,
            }
        })
        .collect()
}

fn read_combination<'v>(
    reading: &mut Reading,
    name: &str,
    combo: &Combination,
    k: &Kind,
    col: &dyn Fn(&str) -> Option<&'v Value>,
) {
    let at = |key: &str| {
        col(key)
            .and_then(|l| l.get(combo.index))
            .filter(|x| !x.is_null())
    };
    let mut b = Benchmark::new(&combo.name, BenchmarkKind::Function);
    b.series = (!combo.parameters.is_empty()).then(|| name.to_string());
    b.parameters = combo.parameters.iter().cloned().collect();
    let place = format!("results[{name:?}]");
    if let Some(why) = malformed(col("result"), combo.index) {
        reading.notes.push(format!(
            "{place}: {why} (a malformed file, not the benchmark's failure); {} left out",
            combo.name
        ));
        return;
    }
    let Some(result) = at("result") else {
        b.set_function(FunctionInfo {
            failure: Some("asv recorded no result (the benchmark raised or timed out)".into()),
            ..FunctionInfo::default()
        });
        reading.keep(&place, b, Ok(()));
        return;
    };
    if result.as_str() == Some("NaN") {
        let note = format!(
            "{place}: {} was skipped by the benchmark (NaN); left out",
            combo.name
        );
        reading.notes.push(note);
        return;
    }
    b.metrics.insert(k.metric.clone(), k.info);
    let filled = match at("samples") {
        Some(samples) => fill_samples(&mut b, k, samples, at("stats_number")),
        None => fill_summary(&mut b, k, result, &at),
    };
    reading.keep(&place, b, filled);
}

/// Why a benchmark's `result` column cannot hold the result of parameter combination
/// `index`: asv writes a list, one value per combination, null for one that raised or
/// timed out (or null for the whole column).
fn malformed(result: Option<&Value>, index: usize) -> Option<String> {
    let list = result?;
    match list.as_array() {
        None => Some(format!("its result {list} is not a list")),
        Some(l) if l.len() <= index => Some(format!(
            "its result has {} values, none for parameter combination {}",
            l.len(),
            index + 1
        )),
        Some(_) => None,
    }
}

/// A number asv wrote, or why it is not a measurement.
fn measurement(x: &Value) -> Result<f64, ImportError> {
    x.as_f64()
        .filter(|v| v.is_finite() && *v >= 0.0)
        .ok_or_else(|| ImportError::from(format!("{x} is not a measurement")))
}

fn fill_samples(
    b: &mut Benchmark,
    k: &Kind,
    samples: &Value,
    number: Option<&Value>,
) -> Result<(), ImportError> {
    let number = number.and_then(Value::as_u64).unwrap_or(1);
    if number == 0 {
        return Err("stats_number is 0: no calls a sample".into());
    }
    let list = samples.as_array().ok_or("samples is not a list")?;
    for (i, s) in list.iter().enumerate() {
        let v = measurement(s).map_err(|e| format!("sample {i}: {e}"))?;
        let total =
            crate::whole_ns(v * k.scale * number as f64).map_err(|e| format!("sample {i}: {e}"))?;
        b.samples.push(number, &[(k.metric.clone(), total)]);
    }
    if b.samples.is_empty() {
        return Err("no samples".into());
    }
    Ok(())
}

fn fill_summary<'v>(
    b: &mut Benchmark,
    k: &Kind,
    result: &Value,
    at: &dyn Fn(&str) -> Option<&'v Value>,
) -> Result<(), ImportError> {
    let median = measurement(result)? * k.scale;
    let bound = |key: &str| {
        at(key)
            .and_then(Value::as_f64)
            .filter(|v| v.is_finite())
            .map(|v| v * k.scale)
    };
    let repeat = at("stats_repeat").and_then(Value::as_u64);
    // asv's interval is the median's 99 % order-statistic interval from 8 samples on
    // (1 − 2·½ⁿ ≥ 0.99); below that it takes a posterior interval, which is no
    // confidence interval: kept, at no stated level.
    let level = repeat
        .filter(|&n| n >= 8)
        .and_then(|_| Confidence::new(0.99));
    let interval = match (bound("stats_ci_99_a"), bound("stats_ci_99_b")) {
        (Some(lo), Some(hi)) if lo <= median && median <= hi => Some(ReportedInterval {
            of: ReportedStatistic::Median,
            lo,
            hi,
            level,
        }),
        _ => None,
    };
    // A time's result is the median of its samples; a memory size or a tracked value is
    // the one value the benchmark gave.
    let summary = match k.metric {
        Metric::WallTime => ReportedSummary {
            n: repeat,
            median: Some(median),
            interval,
            ..ReportedSummary::default()
        },
        _ => ReportedSummary {
            value: Some(median),
            ..ReportedSummary::default()
        },
    };
    b.reported.insert(k.metric.clone(), summary);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn fixture(name: &str) -> crate::Imported {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/asv/results/vm");
        crate::import_path(&Path::new(dir).join(name), None)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn samples_when_recorded_and_the_median_with_its_interval_otherwise() {
        let before = fixture("asv-before.json");
        assert_eq!(before.tool, ForeignTool::Asv);
        assert!(before.notes.is_empty(), "{:?}", before.notes);
        // time_sum, size 64: samples[0] = 1.5419998362631304e-06 s, stats_number 1.
        let b = before
            .doc
            .benchmark("bench_sums.Sums.time_sum/size=64")
            .unwrap();
        assert_eq!(b.samples.len(), 10);
        assert_eq!(b.samples.values(&Metric::WallTime).unwrap()[0], 1542);
        assert_eq!(b.parameters["size"], "64");
        let failed = before
            .doc
            .benchmark("bench_sums.Sums.time_only_small/size=1024");
        assert!(failed.unwrap().function().unwrap().failure.is_some());
        // mem_list: 8056 bytes (benchmarks.json: unit "bytes"), one value.
        let mem = before.doc.benchmark("bench_sums.mem_list").unwrap();
        let r = &mem.reported[&Metric::Named("memory".into())];
        assert_eq!((r.value, r.median), (Some(8056.0), None));
        // time_sum, size 64, without --record-samples: result 2.488499944774958e-06 s,
        // stats_ci_99_a 2.213e-06, stats_ci_99_b 2.794e-06, stats_repeat 10.
        let after = fixture("asv-after.json");
        let b = after
            .doc
            .benchmark("bench_sums.Sums.time_sum/size=64")
            .unwrap();
        let r = &b.reported[&Metric::WallTime];
        assert!((r.median.unwrap() - 2488.499944774958).abs() < 1e-6);
        let i = r.interval.unwrap();
        assert_eq!(i.of, ReportedStatistic::Median);
        assert!((i.lo - 2213.0).abs() < 1e-9 && (i.hi - 2794.0).abs() < 1e-9);
        assert_eq!((r.n, i.level.unwrap().get()), (Some(10), 0.99));
    }

    #[test]
    fn bare_nan_is_read_and_a_skipped_or_bad_combination_is_said() {
        let text = r#"{"a": NaN, "b": "NaN \" -Infinity", "c": [-Infinity, Infinity]}"#;
        let v: Value = serde_json::from_str(&literals_as_strings(text)).unwrap();
        assert_eq!(v["a"], "NaN");
        assert_eq!(v["b"], "NaN \" -Infinity");
        assert_eq!(v["c"][0], "-Infinity");
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/asv/results/vm");
        let text = std::fs::read_to_string(format!("{dir}/asv-before.json")).unwrap();
        // time_sum's first result NaN (skipped), its second's fourth sample negative.
        let broken = text
            .replacen("[[1.572000087435299e-06,", "[[NaN,", 1)
            .replacen("3.392100006749388e-05", "-3.3e-05", 1);
        let imported = crate::import_text(&broken, None).unwrap().unwrap();
        let notes = imported.notes.join("\n");
        assert!(
            notes.contains("time_sum/param1=64 was skipped by the benchmark (NaN)"),
            "{notes}"
        );
        assert!(
            notes.contains("time_sum/param1=1024): sample 3: -0.000033 is not a measurement"),
            "{notes}"
        );
        assert!(notes.contains("no benchmarks.json beside it"), "{notes}");
        assert!(imported
            .doc
            .benchmark("bench_sums.Sums.time_only_small/param1=64")
            .is_some());
        let old = text.replacen("\"version\": 2", "\"version\": 1", 1);
        let err = crate::import_text(&old, None).unwrap_err().to_string();
        assert!(err.contains("asv result format version 1"), "{err}");
    }
}
