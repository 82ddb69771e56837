//! Catch2's XML reporter (`-r xml`, Catch2 2.x `<Catch>` and 3.x `<Catch2TestRun>`). Catch2
//! writes no samples: each `BenchmarkResults` is a summary — the sample count, the mean
//! per call with its bootstrap interval and level, the standard deviation — in
//! nanoseconds, six significant digits (the deviation with divisor n, made n − 1 here).
//! plumb keeps it as the harness's summary; a
//! benchmark that threw (`<failed message=…>`) is kept as failed.

use crate::error::ImportError;
use crate::{ForeignTool, Reading};
use plumb_model::quantity::Confidence;
use plumb_model::{
    Benchmark, BenchmarkKind, Environment, FunctionInfo, Metric, MetricInfo, ReportedInterval,
    ReportedStatistic, ReportedSummary, ResultDocument, Source,
};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

/// An XML document whose root is Catch2's.
pub fn recognises(text: &str) -> bool {
    let head: String = text.trim_start().chars().take(512).collect();
    head.starts_with("<?xml") && (head.contains("<Catch ") || head.contains("<Catch2TestRun"))
}

/// One `BenchmarkResults` as its elements are read.
struct Pending {
    name: String,
    place: String,
    n: Option<u64>,
    mean: Option<(f64, f64, f64, f64)>,
    std_dev: Option<f64>,
    failed: Option<String>,
}

pub fn read(text: &str) -> Result<(ResultDocument, Vec<String>), ImportError> {
    let mut reader = Reader::from_str(text);
    let mut reading = Reading::new(ForeignTool::Catch2, Environment::default());
    let mut test_case = String::new();
    let mut pending: Option<Pending> = None;
    loop {
        let event = match reader.read_event() {
            Ok(e) => e,
            Err(e) => {
                let place = line_of(text, reader.error_position());
                let why = format!("not well-formed XML ({e})");
                if reading.doc.benchmarks.is_empty() {
                    return Err(ImportError::at(place, why));
                }
                let lost = pending.take().map_or("the rest".to_string(), |p| {
                    format!("{:?} and the rest", p.name)
                });
                reading
                    .notes
                    .push(format!("{place}: {why}; {lost} left out"));
                break;
            }
        };
        let place = || line_of(text, reader.buffer_position());
        match event {
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() {
                b"TestCase" => test_case = attr(&e, "name").unwrap_or_default(),
                b"BenchmarkResults" => {
                    let name = attr(&e, "name").unwrap_or_default();
                    pending = Some(Pending {
                        name: format!("{test_case}/{name}"),
                        place: place(),
                        n: attr(&e, "samples").and_then(|s| s.parse().ok()),
                        mean: None,
                        std_dev: None,
                        failed: None,
                    });
                }
                element => {
                    if let Some(p) = pending.as_mut() {
                        fill(p, element, &e);
                    }
                }
            },
            Event::End(e) if e.name().as_ref() == b"BenchmarkResults" => {
                if let Some(p) = pending.take() {
                    let (b, filled) = benchmark(&p);
                    reading.keep(&p.place, b, filled);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(p) = pending {
        let note = format!("{}: the file ends inside {:?}; left out", p.place, p.name);
        reading.notes.push(note);
    }
    Ok(reading.done())
}

/// An element inside `BenchmarkResults`: the mean, the deviation, or the failure.
fn fill(p: &mut Pending, element: &[u8], e: &BytesStart<'_>) {
    let num = |key: &str| attr(e, key).and_then(|v| v.parse::<f64>().ok());
    match element {
        b"mean" => {
            let nan = f64::NAN;
            p.mean = Some((
                num("value").unwrap_or(nan),
                num("lowerBound").unwrap_or(nan),
                num("upperBound").unwrap_or(nan),
                num("ci").unwrap_or(nan),
            ));
        }
        b"standardDeviation" => p.std_dev = num("value"),
        b"failed" => p.failed = Some(attr(e, "message").unwrap_or_default()),
        _ => {}
    }
}

/// The benchmark a `BenchmarkResults` describes, and whether its figures could be read.
fn benchmark(p: &Pending) -> (Benchmark, Result<(), ImportError>) {
    let mut b = Benchmark::new(&p.name, BenchmarkKind::Function);
    if let Some(message) = &p.failed {
        b.set_function(FunctionInfo {
            failure: Some(format!("Catch2: {message}")),
            ..FunctionInfo::default()
        });
        return (b, Ok(()));
    }
    let filled = summary(p).map(|s| {
        b.metrics.insert(
            Metric::WallTime,
            MetricInfo::known(&Metric::WallTime, Source::Measured),
        );
        b.reported.insert(Metric::WallTime, s);
    });
    (b, filled)
}

fn summary(p: &Pending) -> Result<ReportedSummary, ImportError> {
    let (mean, lo, hi, ci) = p.mean.ok_or("no mean")?;
    let time = |what: &str, v: f64| {
        crate::time_ns(v).map_err(|e| ImportError::from(format!("{what}: {e}")))
    };
    let n = p.n.filter(|&n| n > 0).ok_or("no samples")?;
    // Catch2 divides by n (catch_stats.cpp's standard_deviation); the model's is n − 1.
    let bessel = if n > 1 {
        (n as f64 / (n - 1) as f64).sqrt()
    } else {
        1.0
    };
    let std_dev = p
        .std_dev
        .map(|s| time("standard deviation", s))
        .transpose()?;
    Ok(ReportedSummary {
        n: Some(n),
        mean: Some(time("mean", mean)?),
        std_dev: std_dev.map(|s| s * bessel),
        interval: Some(ReportedInterval {
            of: ReportedStatistic::Mean,
            lo: time("the mean's lower bound", lo)?,
            hi: time("the mean's upper bound", hi)?,
            level: Confidence::new(ci),
        }),
        ..ReportedSummary::default()
    })
}

/// An attribute's value, unescaped.
fn attr(e: &BytesStart<'_>, key: &str) -> Option<String> {
    let a = e.try_get_attribute(key).ok()??;
    let v = a
        .normalized_value(quick_xml::XmlVersion::Implicit1_0)
        .ok()?;
    Some(v.into_owned())
}

/// "line N" of a byte offset.
fn line_of(text: &str, offset: u64) -> String {
    let end = (offset as usize).min(text.len());
    let line = text.as_bytes()[..end]
        .iter()
        .filter(|&&c| c == b'\n')
        .count()
        + 1;
    format!("line {line}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEFORE: &str = include_str!("../tests/fixtures/catch2/catch2-before.xml");

    #[test]
    fn each_benchmark_is_its_summary_and_a_throw_a_failure() {
        assert!(recognises(BEFORE));
        let (doc, notes) = read(BEFORE).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        // <BenchmarkResults name="sum 64" samples="30" …><mean value="35.5016"
        // lowerBound="35.4463" upperBound="35.7207" ci="0.95"/>
        let b = doc.benchmark("sums/sum 64").unwrap();
        let r = &b.reported[&Metric::WallTime];
        assert_eq!((r.n, r.mean), (Some(30), Some(35.5016)));
        // standardDeviation value="0.291412", Catch2's divisor n: × √(30/29) for n − 1.
        assert!((r.std_dev.unwrap() - 0.291412 * (30.0f64 / 29.0).sqrt()).abs() < 1e-12);
        let i = r.interval.unwrap();
        assert_eq!(
            (i.lo, i.hi, i.level.unwrap().get()),
            (35.4463, 35.7207, 0.95)
        );
        assert!(b.samples.is_empty());
        let f = doc.benchmark("fails/throws").unwrap().function().unwrap();
        assert_eq!(f.failure.as_deref(), Some("Catch2: boom"));
    }

    #[test]
    fn a_bad_benchmark_fails_alone_and_a_truncated_file_keeps_what_it_holds() {
        let nan = BEFORE.replacen("value=\"35.5016\"", "value=\"nan\"", 1);
        let (doc, notes) = read(&nan).unwrap();
        assert_eq!(doc.benchmarks.len(), 3);
        assert!(
            notes[0].contains("(sums/sum 64): mean: NaN is not a time"),
            "{notes:?}"
        );
        let none = BEFORE.replacen("samples=\"30\"", "samples=\"0\"", 1);
        let (_, notes) = read(&none).unwrap();
        assert!(notes[0].ends_with("no samples"), "{notes:?}");
        let twice = BEFORE.replacen("name=\"sum 1024\"", "name=\"sum 64\"", 1);
        let (doc, notes) = read(&twice).unwrap();
        assert_eq!(doc.benchmarks.len(), 2);
        assert!(
            notes[0].contains("a second benchmark named \"sums/sum 64\""),
            "{notes:?}"
        );
        // Cut inside a tag, and between the elements of a benchmark.
        let at = BEFORE.find("name=\"sum 1024\"").unwrap();
        let (doc, notes) = read(&BEFORE[..at + 40]).unwrap();
        assert_eq!(doc.benchmarks.len(), 1);
        assert!(
            notes[0].starts_with("line 11: not well-formed XML")
                && notes[0].ends_with("the rest left out"),
            "{notes:?}"
        );
        let mean = at + BEFORE[at..].find("<mean").unwrap();
        let (doc, notes) = read(&BEFORE[..mean]).unwrap();
        assert_eq!(doc.benchmarks.len(), 1);
        assert!(notes.last().unwrap().contains("left out"), "{notes:?}");
        let err = read(&BEFORE[..60]).unwrap_err().to_string();
        assert!(err.starts_with("line 2"), "{err}");
    }
}
