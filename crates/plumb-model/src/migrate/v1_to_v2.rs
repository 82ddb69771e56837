//! Reading format version 1, as written by plumb 0.1: the JSON is rewritten into version
//! 2's shape before it is parsed, so the types know one version only.
//!
//! What changes: samples become metric columns (`wall_ns` → `wall-time`, `user_ns`,
//! `sys_ns`, `max_rss_kib` × 1024 → `peak-rss` bytes, exits apart); `correction` becomes
//! a wall-time entry of `corrections`; `time` becomes `stats["wall-time"]`; the free-form
//! `settings.options` is kept under a `version1` producer; verdict reasons, written as
//! sentences, become their kind (read from the verdict and the sentence); in-process
//! `warmup_ns` → `warmup_time`, `working_set_bytes` → `working_set`.
//!
//! What cannot be carried: version 1 counted an in-process benchmark's allocations over
//! the whole run (`allocs_per_op`, `bytes_per_op`), not per sample, so they are dropped
//! (the `allocates` diagnostic, with its figures, stays).

use super::{obj, rename};
use crate::ModelError;
use serde_json::{json, Map, Value};

pub(super) fn v1_to_v2(mut doc: Value) -> Result<Value, ModelError> {
    check_levels(&doc)?;
    let o = obj(&mut doc, "the document")?;
    o.insert("format_version".into(), json!(2));
    if let Some(settings) = o.get_mut("settings").and_then(Value::as_object_mut) {
        let options = settings.remove("options").unwrap_or(Value::Null);
        settings.insert(
            "producer".into(),
            json!({ "producer": "version1", "options": options }),
        );
    }
    if let Some(benchmarks) = o.get_mut("benchmarks").and_then(Value::as_array_mut) {
        for b in benchmarks {
            benchmark(b)?;
        }
    }
    if let Some(comparisons) = o.get_mut("comparisons").and_then(Value::as_array_mut) {
        for c in comparisons {
            comparison(c)?;
        }
    }
    Ok(doc)
}

fn benchmark(b: &mut Value) -> Result<(), ModelError> {
    let o = obj(b, "a benchmark")?;
    let samples = o.remove("samples").unwrap_or(json!([]));
    let warmup = o.remove("warmup").unwrap_or(json!([]));
    let (samples, metrics) = columns(&samples)?;
    let (warmup, _) = columns(&warmup)?;
    // The samples declare the benchmark's metrics; warm-up keeps those of them it has.
    o.insert("samples".into(), samples);
    o.insert("warmup".into(), keep_columns(warmup, &metrics));
    let declared: Map<String, Value> = metrics
        .iter()
        .map(|m| {
            let (unit, aggregate) = match *m {
                "peak-rss" => ("bytes", "peak"),
                _ => ("ns", "sum"),
            };
            (
                m.to_string(),
                json!({ "unit": unit, "source": "measured", "aggregate": aggregate }),
            )
        })
        .collect();
    o.insert("metrics".into(), Value::Object(declared));
    if let Some(c) = o.remove("correction").filter(|c| !c.is_null()) {
        o.insert(
            "corrections".into(),
            json!([{
                "metric": "wall-time",
                "value": c["ns"],
                "std_err": c["std_err_ns"],
                "reason": c["reason"],
            }]),
        );
    }
    if let Some(t) = o.remove("time").filter(|t| !t.is_null()) {
        o.insert("stats".into(), json!({ "wall-time": t }));
    }
    if let Some(f) = o.get_mut("function").and_then(Value::as_object_mut) {
        f.remove("allocs_per_op");
        f.remove("bytes_per_op");
        rename(f, "warmup_ns", "warmup_time");
        rename(f, "working_set_bytes", "working_set");
        f.entry("steady_state").or_insert(json!(false));
        f.entry("warmup_time").or_insert(json!(0));
    }
    Ok(())
}

/// Version-1 sample records as version-2 columns, and the metrics every record had.
fn columns(records: &Value) -> Result<(Value, Vec<&'static str>), ModelError> {
    let records = records
        .as_array()
        .ok_or_else(|| ModelError::Migration("\"samples\" is not an array".into()))?;
    let field = |r: &Value, k: &str| r.get(k).and_then(Value::as_u64);
    let mut values = Map::new();
    let mut present = Vec::new();
    for (metric, key, scale) in [
        ("wall-time", "wall_ns", 1),
        ("user-time", "user_ns", 1),
        ("system-time", "sys_ns", 1),
        ("peak-rss", "max_rss_kib", 1024),
    ] {
        let column: Option<Vec<u64>> = records
            .iter()
            .map(|r| field(r, key).map(|v| v.saturating_mul(scale)))
            .collect();
        match column {
            Some(c) if metric == "wall-time" || !c.is_empty() => {
                values.insert(metric.into(), json!(c));
                present.push(metric);
            }
            None if metric == "wall-time" => {
                return Err(ModelError::Migration("a sample has no \"wall_ns\"".into()))
            }
            _ => {}
        }
    }
    let iterations: Vec<u64> = records
        .iter()
        .map(|r| field(r, "iterations").unwrap_or(1))
        .collect();
    let exits: Option<Vec<Value>> = records
        .iter()
        .map(|r| match (r.get("exit_code"), r.get("signal")) {
            (Some(c), _) if c.is_i64() => Some(c.clone()),
            (_, Some(s)) if s.is_i64() => Some(json!({ "signal": s })),
            _ => None,
        })
        .collect();
    let mut out = json!({ "count": records.len(), "values": values });
    if iterations.iter().any(|&n| n != 1) {
        out["iterations"] = json!(iterations);
    }
    if let Some(e) = exits.filter(|e| !e.is_empty()) {
        out["exits"] = json!(e);
    }
    Ok((out, present))
}

fn keep_columns(mut samples: Value, metrics: &[&str]) -> Value {
    if let Some(v) = samples["values"].as_object_mut() {
        v.retain(|k, _| metrics.contains(&k.as_str()));
    }
    samples
}

/// A version-1 comparison: its sentence becomes the reason's kind.
fn comparison(c: &mut Value) -> Result<(), ModelError> {
    let o = obj(c, "a comparison")?;
    rename(o, "hodges_lehmann_ns", "hodges_lehmann");
    o.insert("metric".into(), json!("wall-time"));
    let sentence = o
        .get("reason")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let verdict = o.get("verdict").and_then(Value::as_str).unwrap_or_default();
    let reason = match verdict {
        "faster" | "slower" => json!({
            "kind": "beyond-sesoi",
            "constant_samples": sentence.contains("both samples are constant"),
        }),
        "equivalent" => json!({ "kind": "within-sesoi" }),
        _ if sentence.is_empty() => json!({ "kind": "unjudged" }),
        _ if sentence.starts_with("cannot compare: ") => cannot_compare(&sentence),
        _ if sentence.contains("not distinguishable from zero") => json!({
            "kind": "baseline-near-zero",
            "baseline_mean": between(&sentence, "mean (", " ns)")
                .and_then(|m| m.parse::<f64>().ok())
                .unwrap_or(0.0),
        }),
        _ if sentence.contains("straddles") => json!({ "kind": "straddles-sesoi" }),
        _ => json!({ "kind": "not-shown" }),
    };
    o.insert("reason".into(), reason);
    Ok(())
}

/// "cannot compare: PROBLEM (baseline n=X, candidate n=Y)" as its parts.
fn cannot_compare(sentence: &str) -> Value {
    let rest = sentence.trim_start_matches("cannot compare: ");
    let (problem, counts) = rest.rsplit_once(" (baseline n=").unwrap_or((rest, ""));
    let n = |from: &str, to: &str| {
        between(&format!("({counts}"), from, to).and_then(|v| v.parse::<u64>().ok())
    };
    json!({
        "kind": "cannot-compare",
        "problem": problem,
        "baseline_n": n("(", ","),
        "candidate_n": n("candidate n=", ")"),
    })
}

/// The text between the first `from` and the next `to`.
fn between<'a>(s: &'a str, from: &str, to: &str) -> Option<&'a str> {
    let start = s.find(from)? + from.len();
    let len = s[start..].find(to)?;
    Some(&s[start..start + len])
}

/// Version 1 accepted levels below 50 % in plumb-bench; version 2 does not use them.
fn check_levels(doc: &Value) -> Result<(), ModelError> {
    match doc["settings"]["confidence"].as_f64() {
        Some(c) if c < 0.5 => Err(ModelError::Migration(format!(
            "its confidence level {c} is below 50 %, which this plumb does not use; re-run it at 50 % or more"
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_become_columns() {
        let v1 = json!([
            {"wall_ns": 100, "user_ns": 40, "sys_ns": 10, "max_rss_kib": 2, "exit_code": 0},
            {"wall_ns": 110, "user_ns": 41, "sys_ns": 11, "max_rss_kib": 3, "signal": 9},
        ]);
        let (v2, metrics) = columns(&v1).unwrap();
        assert_eq!(
            metrics,
            ["wall-time", "user-time", "system-time", "peak-rss"]
        );
        assert_eq!(
            v2,
            json!({
                "count": 2,
                "values": {
                    "wall-time": [100, 110], "user-time": [40, 41],
                    "system-time": [10, 11], "peak-rss": [2048, 3072]
                },
                "exits": [0, {"signal": 9}]
            })
        );
        let (v2, metrics) = columns(&json!([{"wall_ns": 5000, "iterations": 10}])).unwrap();
        assert_eq!(metrics, ["wall-time"]);
        assert_eq!(v2["iterations"], json!([10]));
        assert!(columns(&json!([{"user_ns": 1}])).is_err());
    }

    #[test]
    fn reasons_keep_their_figures() {
        let mut c = json!({
            "verdict": "inconclusive",
            "reason": "cannot compare: needs at least 2 samples (baseline n=1, candidate n=2)",
        });
        comparison(&mut c).unwrap();
        assert_eq!(
            c["reason"],
            json!({"kind": "cannot-compare", "problem": "needs at least 2 samples",
                   "baseline_n": 1, "candidate_n": 2})
        );
        let mut c = json!({
            "verdict": "inconclusive",
            "reason": "the baseline's mean (2.500e-1 ns) is not distinguishable from zero, so a ratio to it means nothing",
        });
        comparison(&mut c).unwrap();
        assert_eq!(c["reason"]["baseline_mean"], 0.25);
        let mut c = json!({ "verdict": "inconclusive", "reason": "" });
        comparison(&mut c).unwrap();
        assert_eq!(c["reason"]["kind"], "unjudged");
    }
}
