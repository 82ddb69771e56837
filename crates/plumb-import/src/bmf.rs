//! Bencher Metric Format (BMF) JSON: `{ benchmark: { measure: { "value", "lower_value"?,
//! "upper_value"? } } }`, what every Bencher adapter and many scripts write. It is a
//! summary: one value per benchmark and measure, of a statistic it does not name, with
//! bounds of a kind it does not say (each adapter fills them its own way). plumb keeps
//! them as the harness's summary (`latency` as wall time in nanoseconds, other measures
//! under their own names), so a comparison of two BMF files says it cannot judge from
//! one value a side.

use crate::error::ImportError;
use plumb_model::{
    Aggregate, Benchmark, BenchmarkKind, Environment, Metric, MetricInfo, ReportedInterval,
    ReportedStatistic, ReportedSummary, ResultDocument, Source, Unit,
};
use serde_json::Value;

/// A JSON object of benchmarks, each an object of measures, each with a numeric "value".
pub fn recognises(v: &Value) -> bool {
    let Some(benches) = v.as_object().filter(|o| !o.is_empty()) else {
        return false;
    };
    benches.values().all(|m| {
        m.as_object().is_some_and(|m| {
            !m.is_empty() && m.values().all(|x| x.get("value").is_some_and(is_figure))
        })
    })
}

/// A value as BMF holds one: a number, or Python's NaN or Infinity (read as strings,
/// which `benchmark` then refuses by name).
fn is_figure(v: &Value) -> bool {
    v.is_number() || matches!(v.as_str(), Some("NaN" | "Infinity" | "-Infinity"))
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
        "a summary: one value per benchmark and measure, of an unnamed statistic (no verdict can come from one value a side)".to_string(),
    ];
    for (name, measures) in benches {
        match benchmark(name, measures) {
            Ok(b) => doc.benchmarks.push(b),
            Err(why) => notes.push(format!("{name:?}: {why}; left out")),
        }
    }
    Ok((doc, notes))
}

fn benchmark(name: &str, measures: &Value) -> Result<Benchmark, ImportError> {
    let mut b = Benchmark::new(name, BenchmarkKind::Function);
    for (slug, m) in measures.as_object().into_iter().flatten() {
        let figure = |key: &str| -> Result<Option<f64>, ImportError> {
            match &m[key] {
                Value::Null => Ok(None),
                x => x
                    .as_f64()
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .map(Some)
                    .ok_or(ImportError::from(format!(
                        "{slug}: {key} {x} is not a measurement"
                    ))),
            }
        };
        let value = figure("value")?.ok_or(ImportError::from(format!("{slug}: no value")))?;
        let interval = match (figure("lower_value")?, figure("upper_value")?) {
            (Some(lo), Some(hi)) if lo > hi => {
                return Err(ImportError::from(format!(
                    "{slug}: lower_value {lo} is above upper_value {hi}: no interval"
                )))
            }
            (Some(lo), Some(hi)) => Some(ReportedInterval {
                of: ReportedStatistic::Unknown,
                lo,
                hi,
                level: None,
            }),
            _ => None,
        };
        let (metric, info) = metric_of(slug);
        b.metrics.insert(metric.clone(), info);
        let summary = ReportedSummary {
            value: Some(value),
            interval,
            ..ReportedSummary::default()
        };
        b.reported.insert(metric, summary);
    }
    if b.reported.is_empty() {
        return Err("no measures".into());
    }
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
        assert_eq!(b.reported[&Metric::WallTime].value, Some(3443.0));
        assert_eq!(notes.len(), 1);
        let bad: Value = serde_json::from_str(
            r#"{"a": {"latency": {"value": 5.0}, "throughput": {"value": 2.5}}, "b": {"latency": {"value": -1}}}"#,
        )
        .unwrap();
        let (doc, notes) = read(&bad).unwrap();
        assert_eq!(doc.benchmarks.len(), 1);
        assert_eq!(
            doc.benchmarks[0].reported[&Metric::Named("throughput".into())].value,
            Some(2.5)
        );
        assert!(
            notes[1].starts_with("\"b\": latency: value -1 is not a measurement"),
            "{notes:?}"
        );
        let odd: Value = serde_json::from_str(
            r#"{"a": {"latency": {"value": "NaN"}}, "b": {"latency": {"value": 5, "lower_value": 6, "upper_value": 4}}}"#,
        )
        .unwrap();
        assert!(recognises(&odd));
        let (doc, notes) = read(&odd).unwrap();
        assert!(doc.benchmarks.is_empty());
        assert_eq!(
            notes[1..],
            [
                "\"a\": latency: value \"NaN\" is not a measurement; left out",
                "\"b\": latency: lower_value 6 is above upper_value 4: no interval; left out"
            ]
        );
        // Not BMF: a measure without a value.
        assert!(!recognises(
            &serde_json::from_str(r#"{"a": {"latency": {"mean": 5}}}"#).unwrap()
        ));
    }
}
