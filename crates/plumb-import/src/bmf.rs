//! Bencher Metric Format (BMF) JSON: `{ benchmark: { measure: { "value", "lower_value"?,
//! "upper_value"? } } }`, what every Bencher adapter and many scripts write. It is a
//! summary: one value per benchmark and measure. plumb keeps that value as one sample of
//! one operation (`latency` as wall time in nanoseconds, other measures under their own
//! names), so a comparison of two BMF files has one value a side and says it cannot
//! judge from that; the bounds are not samples and are not kept.

use crate::error::ImportError;
use plumb_model::{
    Aggregate, Benchmark, BenchmarkKind, Environment, Metric, MetricInfo, ResultDocument, Source,
    Unit,
};
use serde_json::Value;

/// A JSON object of benchmarks, each an object of measures, each with a numeric "value".
pub fn recognises(v: &Value) -> bool {
    let Some(benches) = v.as_object().filter(|o| !o.is_empty()) else {
        return false;
    };
    benches.values().all(|m| {
        m.as_object().is_some_and(|m| {
            !m.is_empty()
                && m.values()
                    .all(|x| x.get("value").is_some_and(Value::is_number))
        })
    })
}

fn metric_of(measure: &str) -> (Metric, MetricInfo) {
    match measure {
        "latency" => (
            Metric::WallTime,
            MetricInfo::known(&Metric::WallTime, Source::Measured),
        ),
        other => (
            Metric::Named(other.to_string()),
            MetricInfo {
                unit: Unit::Count,
                source: Source::Measured,
                aggregate: Aggregate::Sum,
            },
        ),
    }
}

pub fn read(v: &Value) -> Result<(ResultDocument, Vec<String>), ImportError> {
    let benches = v
        .as_object()
        .ok_or_else(|| ImportError::at("", "not an object of benchmarks"))?;
    let mut doc = crate::document(crate::ForeignTool::Bmf, Environment::default());
    let mut notes = vec![
        "a summary: one value per benchmark and measure, kept as one sample (no interval or verdict can come from one value)".to_string(),
    ];
    for (name, measures) in benches {
        match benchmark(name, measures) {
            Ok(b) => doc.benchmarks.push(b),
            Err(why) => notes.push(format!("{name:?}: {why}; left out")),
        }
    }
    Ok((doc, notes))
}

fn benchmark(name: &str, measures: &Value) -> Result<Benchmark, String> {
    let mut b = Benchmark::new(name, BenchmarkKind::Function);
    let mut values = Vec::new();
    for (slug, m) in measures.as_object().into_iter().flatten() {
        let value = m["value"]
            .as_f64()
            .filter(|x| x.is_finite() && *x >= 0.0)
            .ok_or(format!("{slug}: value {} is not a measurement", m["value"]))?;
        let (metric, info) = metric_of(slug);
        b.metrics.insert(metric.clone(), info);
        values.push((metric, value.round() as u64));
    }
    if values.is_empty() {
        return Err("no measures".into());
    }
    b.samples.push(1, &values);
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_value_is_one_sample_and_a_bad_one_is_left_out() {
        let text = include_str!("../tests/fixtures/bmf/report_latency.json");
        let v: Value = serde_json::from_str(text).unwrap();
        assert!(recognises(&v));
        let (doc, notes) = read(&v).unwrap();
        assert_eq!(doc.benchmarks.len(), 3);
        let b = doc.benchmark("tests::benchmark_b").unwrap();
        assert_eq!(b.samples.values(&Metric::WallTime).unwrap(), [3443]);
        assert_eq!(notes.len(), 1);
        let bad: Value = serde_json::from_str(
            r#"{"a": {"latency": {"value": 5.0}, "throughput": {"value": 2.5}}, "b": {"latency": {"value": -1}}}"#,
        )
        .unwrap();
        let (doc, notes) = read(&bad).unwrap();
        assert_eq!(doc.benchmarks.len(), 1);
        assert_eq!(
            doc.benchmarks[0]
                .samples
                .values(&Metric::Named("throughput".into()))
                .unwrap(),
            [3]
        );
        assert!(
            notes[1].starts_with("\"b\": latency: value -1 is not a measurement"),
            "{notes:?}"
        );
        // Not BMF: a measure without a value.
        assert!(!recognises(
            &serde_json::from_str(r#"{"a": {"latency": {"mean": 5}}}"#).unwrap()
        ));
    }
}
