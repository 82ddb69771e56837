//! Version 2 → 3: measured values with their unit in the field's name become typed
//! values without it. Times are nanoseconds (a latency's microseconds × 1000, a load
//! test's seconds × 10⁹), moments on the wall clock are RFC 3339 text (Unix seconds
//! before), sizes are bytes under names without `_bytes`, a TSC's ticks per ns are hertz;
//! an in-process empty body's time is per call of the routine instead of per operation.
//!
//! Nothing is lost: every figure of version 2 has its place in version 3. A timeline
//! second's percentile that was null (after a merge) stays null.

use super::{obj, rename};
use crate::quantity::Timestamp;
use crate::ModelError;
use serde_json::{json, Map, Value};

pub(super) fn v2_to_v3(mut doc: Value) -> Result<Value, ModelError> {
    let o = obj(&mut doc, "the document")?;
    o.insert("format_version".into(), json!(3));
    moment(o, "started_unix_s", "started");
    if let Some(clock) = o.get_mut("clock").and_then(Value::as_object_mut) {
        rename(clock, "resolution_ns", "resolution");
        rename(clock, "read_cost_ns", "read_cost");
        scale(clock, "ticks_per_ns", "tsc_frequency", 1e9);
    }
    if let Some(env) = o.get_mut("environment").and_then(Value::as_object_mut) {
        environment(env);
    }
    if let Some(p) = o.get_mut("settings").and_then(|s| s.get_mut("producer")) {
        producer(p);
    }
    for b in array(o, "benchmarks") {
        benchmark(obj(b, "a benchmark")?);
    }
    for r in array(o, "regions") {
        rename(obj(r, "a region")?, "total_ns", "total");
    }
    Ok(doc)
}

/// A comparison document: when each side was measured, and load percentiles in ns.
pub(super) fn comparison_v2_to_v3(mut doc: Value) -> Result<Value, ModelError> {
    let o = obj(&mut doc, "the comparison")?;
    o.insert("format_version".into(), json!(3));
    for side in ["base", "new"] {
        if let Some(s) = o.get_mut(side).and_then(Value::as_object_mut) {
            moment(s, "started_unix_s", "started");
        }
    }
    for l in array(o, "load") {
        for p in l
            .get_mut("percentiles")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if let Some(p) = p.as_object_mut() {
                scale(p, "base_us", "base", 1e3);
                scale(p, "new_us", "new", 1e3);
            }
        }
    }
    Ok(doc)
}

fn array<'a>(o: &'a mut Map<String, Value>, key: &str) -> impl Iterator<Item = &'a mut Value> {
    o.get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

/// `from` × `factor` as `to`; null stays null.
fn scale(o: &mut Map<String, Value>, from: &str, to: &str, factor: f64) {
    if let Some(v) = o.remove(from) {
        o.insert(
            to.into(),
            v.as_f64().map_or(Value::Null, |x| json!(x * factor)),
        );
    }
}

/// Unix seconds under `from` as an RFC 3339 moment under `to`.
fn moment(o: &mut Map<String, Value>, from: &str, to: &str) {
    if let Some(v) = o.remove(from) {
        let t = v.as_f64().map(Timestamp::from_unix_secs_f64);
        o.insert(to.into(), t.map_or(Value::Null, |t| json!(t.to_string())));
    }
}

fn environment(env: &mut Map<String, Value>) {
    rename(env, "memory_bytes", "memory");
    for c in array(env, "caches") {
        if let Some(c) = c.as_object_mut() {
            rename(c, "size_bytes", "size");
            rename(c, "line_bytes", "line_size");
        }
    }
}

/// A producer's settings; a merge's keeps each agent's load settings too.
fn producer(p: &mut Value) {
    let Some(p) = p.as_object_mut() else { return };
    for agent in array(p, "agents") {
        producer(agent);
    }
    moment(p, "start_at", "start_at");
    rename(p, "timer_cost_ns", "timer_cost");
}

fn benchmark(b: &mut Map<String, Value>) {
    if let Some(f) = b.get_mut("function").and_then(Value::as_object_mut) {
        // Per operation before, per call (of `ops_per_iter` operations) now.
        let ops = f.get("ops_per_iter").and_then(Value::as_f64).unwrap_or(1.0);
        scale(f, "empty_body_ns", "empty_body", ops);
        if let Some(Value::Array(xs)) = f.remove("empty_body_samples_ns") {
            let per_call = xs.iter().map(|x| json!(x.as_f64().unwrap_or(0.0) * ops));
            f.insert(
                "empty_body_samples".into(),
                Value::Array(per_call.collect()),
            );
        }
    }
    if let Some(l) = b.get_mut("load").and_then(Value::as_object_mut) {
        load(l);
    }
    let caches = b
        .get_mut("simulated")
        .and_then(|s| s.get_mut("caches"))
        .and_then(Value::as_object_mut);
    for c in caches.into_iter().flat_map(|c| c.values_mut()) {
        if let Some(c) = c.as_object_mut() {
            rename(c, "size_bytes", "size");
            rename(c, "line_bytes", "line_size");
        }
    }
}

fn load(l: &mut Map<String, Value>) {
    scale(l, "duration_s", "duration", 1e9);
    rename(l, "body_bytes", "body");
    for key in ["latency", "service", "send_lateness"] {
        if let Some(d) = l.get_mut(key).and_then(Value::as_object_mut) {
            distribution(d);
        }
    }
    for row in array(l, "timeline") {
        if let Some(row) = row.as_object_mut() {
            scale(row, "p50_us", "p50", 1e3);
            scale(row, "p99_us", "p99", 1e3);
            scale(row, "max_us", "max", 1e3);
        }
    }
    if let Some(w) = l.get_mut("slot_waits").and_then(Value::as_object_mut) {
        scale(w, "max_us", "max", 1e3);
        scale(w, "total_us", "total", 1e3);
    }
    if let Some(w) = l.get_mut("window").and_then(Value::as_object_mut) {
        window(w);
    }
    for run in array(l, "runs") {
        let Some(run) = run.as_object_mut() else {
            continue;
        };
        if let Some(w) = run.get_mut("window").and_then(Value::as_object_mut) {
            window(w);
        }
        if let Some(d) = run.get_mut("latency").and_then(Value::as_object_mut) {
            distribution(d);
        }
    }
}

fn window(w: &mut Map<String, Value>) {
    moment(w, "start_unix_s", "start");
    moment(w, "end_unix_s", "end");
}

fn distribution(d: &mut Map<String, Value>) {
    if let Some(Value::Object(p)) = d.remove("percentiles_us") {
        let ns: Map<String, Value> = p
            .into_iter()
            .map(|(k, v)| (k, v.as_f64().map_or(Value::Null, |us| json!(us * 1e3))))
            .collect();
        d.insert("percentiles".into(), Value::Object(ns));
    }
    scale(d, "max_us", "max", 1e3);
    scale(d, "mean_us", "mean", 1e3);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_load_result_keeps_every_figure_in_its_new_unit() {
        let mut l = json!({
            "duration_s": 2.5, "body_bytes": 100,
            "latency": {"count": 3, "percentiles_us": {"p50": 120.0, "p99": 980.0},
                        "max_us": 1000.0, "mean_us": 150.5, "hdr_base64": "x"},
            "timeline": [{"second": 0, "ok": 1, "errors": 0, "p50_us": null, "p99_us": null, "max_us": 7.0}],
            "slot_waits": {"count": 1, "max_us": 2.0, "total_us": 2.0},
            "window": {"start_unix_s": 1795461909.5, "end_unix_s": 1795461912.0},
        });
        load(l.as_object_mut().unwrap());
        assert_eq!(l["duration"], json!(2.5e9));
        assert_eq!(l["body"], json!(100));
        assert_eq!(
            l["latency"]["percentiles"],
            json!({"p50": 120000.0, "p99": 980000.0})
        );
        assert_eq!(l["latency"]["max"], json!(1e6));
        assert_eq!(l["latency"]["mean"], json!(150500.0));
        assert_eq!(l["timeline"][0]["p50"], Value::Null);
        assert_eq!(l["timeline"][0]["max"], json!(7000.0));
        assert_eq!(l["slot_waits"]["total"], json!(2000.0));
        assert_eq!(
            l["window"]["start"],
            json!("2026-11-23T19:25:09.500000000Z")
        );
        assert!(l.get("duration_s").is_none() && l["latency"].get("max_us").is_none());
    }
}
