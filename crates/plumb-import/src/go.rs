//! Go's `go test -bench` output, read as benchstat reads it (golang.org/x/perf/benchfmt):
//! each result line, `BenchmarkName-P  N  v unit  [v unit …]`, is one sample of N
//! iterations (`-count 5` gives five); `key: value` lines (goos, goarch, pkg, cpu) hold
//! for the results after them; `--- FAIL: BenchmarkName` and its indented log mark a
//! failed benchmark; everything else (test output, logs, PASS/FAIL/ok) is passed over.
//! `go test -json` (test2json) is read by joining each package's output events in order.

use crate::error::ImportError;
use plumb_model::{
    Aggregate, Benchmark, BenchmarkKind, Environment, FunctionInfo, Metric, MetricInfo,
    ResultDocument, Source, Unit,
};
use serde_json::Value;

/// One benchmark as its lines are read.
struct Reading {
    package: String,
    name: String,
    metrics: Vec<Metric>,
    samples: Vec<(u64, Vec<u64>)>,
    failure: Option<String>,
}

/// A result line: the iterations and each (value, unit) after them.
struct ResultLine<'a> {
    name: &'a str,
    iterations: u64,
    values: Vec<(f64, &'a str)>,
}

/// Whether `text` is `go test -json` output: lines of test2json events.
pub fn recognises_events(text: &str) -> bool {
    let first = text.lines().find(|l| !l.trim().is_empty());
    first
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .is_some_and(|v| v.get("Action").is_some_and(Value::is_string))
}

/// The text test2json's output events carry, each package's in the order it came, and
/// what is said when its last event is cut short (a file truncated, a run killed): the
/// events before it are read.
pub fn events_text(text: &str) -> Result<(String, Option<String>), ImportError> {
    let mut packages: Vec<(String, String)> = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    let mut cut = None;
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) if e.is_eof() && Some(i) == last && i > 0 => {
                cut = Some(format!(
                    "line {}: the last test2json event is cut short (the file ends inside it: truncated, or go test was stopped); the events before it are read",
                    i + 1
                ));
                break;
            }
            Err(e) => {
                return Err(ImportError::at(
                    format!("line {}", i + 1),
                    format!("not a test2json event ({e})"),
                ))
            }
        };
        if v["Action"].as_str() != Some("output") {
            continue;
        }
        let package = v["Package"].as_str().unwrap_or_default().to_string();
        let output = v["Output"].as_str().unwrap_or_default();
        match packages.iter_mut().find(|(p, _)| *p == package) {
            Some((_, out)) => out.push_str(output),
            None => packages.push((package, output.to_string())),
        }
    }
    Ok((packages.into_iter().map(|(_, out)| out).collect(), cut))
}

/// Whether `text` is Go benchmark output, as text or as test2json events carrying it.
pub fn recognises_output(text: &str) -> bool {
    recognises_events(text) || looks_like(text)
}

/// Whether text is Go's benchmark output even if no result line of it can be read: a
/// line that starts as a result does (`BenchmarkX-2  0  NaN ns/op`), or the header
/// `go test -bench` prints (`goos:`, `goarch:`, `pkg:`).
fn looks_like(text: &str) -> bool {
    text.lines().any(|l| {
        result_line(l).is_some()
            || config_line(l).is_some_and(|(k, _)| matches!(k, "goos" | "goarch" | "pkg"))
    })
}

/// Reads Go benchmark output, as text or as test2json events carrying it.
pub fn read_output(text: &str) -> Result<(ResultDocument, Vec<String>), ImportError> {
    if recognises_events(text) {
        let (carried, cut) = events_text(text)?;
        let (doc, mut notes) = read(&carried)?;
        notes.extend(cut);
        return Ok((doc, notes));
    }
    read(text)
}

/// `line` as a benchmark result: None when it is not one at all, an error when it starts
/// like one but is malformed.
fn result_line(line: &str) -> Option<Result<ResultLine<'_>, ImportError>> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let name = fields.first()?.strip_prefix("Benchmark")?;
    // A name alone (`-v` prints it before the result), or a failure after the name.
    if name.is_empty() || fields.len() == 1 || fields[1] == "---" {
        return None;
    }
    Some(parse_result(fields))
}

fn parse_result(fields: Vec<&str>) -> Result<ResultLine<'_>, ImportError> {
    let iterations = fields[1]
        .parse::<u64>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or(ImportError::from(format!(
            "{:?} is not a positive iteration count",
            fields[1]
        )))?;
    let rest = &fields[2..];
    if rest.is_empty() || !rest.len().is_multiple_of(2) {
        return Err("a result needs value-unit pairs after the iteration count".into());
    }
    let values = rest
        .chunks(2)
        .map(|p| match p[0].parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok((v, p[1])),
            _ => Err(ImportError::from(format!(
                "{:?} {} is not a value",
                p[0], p[1]
            ))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ResultLine {
        name: fields[0],
        iterations,
        values,
    })
}

/// The metric a per-operation unit is kept as; None for units that are not per
/// operation (MB/s follows from ns/op and the bytes an operation handles).
fn metric_of(unit: &str) -> Option<Metric> {
    match unit {
        "ns/op" => Some(Metric::WallTime),
        "B/op" => Some(Metric::AllocatedBytes),
        "allocs/op" => Some(Metric::Allocations),
        other => other
            .strip_suffix("/op")
            .map(|u| Metric::Named(u.to_string())),
    }
}

/// A `key: value` configuration line (lower-case key, no spaces), as benchfmt reads one.
fn config_line(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let ok = key.starts_with(|c: char| c.is_ascii_lowercase())
        && !key.contains(|c: char| c.is_whitespace() || c.is_uppercase());
    (ok && value.starts_with([' ', '\t'])).then(|| (key, value.trim()))
}

/// Reads Go benchmark text: the document, and a note for each line or unit not taken.
pub fn read(text: &str) -> Result<(ResultDocument, Vec<String>), ImportError> {
    let mut env = Environment::default();
    let mut package = String::new();
    let mut benches: Vec<Reading> = Vec::new();
    let mut notes = Vec::new();
    let mut failing: Option<usize> = None;
    // Indented lines since the last other line: `-v` prints a benchmark's log before its
    // `--- FAIL`, plain output after it.
    let mut log: Vec<&str> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let place = format!("line {}", i + 1);
        let indented = line.starts_with([' ', '\t']) && !line.trim().is_empty();
        if failing.is_none() {
            if indented {
                log.push(line.trim());
                continue;
            }
            if failed_benchmark(line).is_none() {
                log.clear();
            }
        }
        if let Some(k) = failing {
            if line.starts_with([' ', '\t']) && !line.trim().is_empty() {
                let f = benches[k].failure.get_or_insert_with(String::new);
                if !f.is_empty() {
                    f.push_str(" / ");
                }
                f.push_str(line.trim());
                continue;
            }
            failing = None;
        }
        if let Some(name) = failed_benchmark(line) {
            let k = bench_index(&mut benches, &package, name);
            let f = benches[k].failure.get_or_insert_with(String::new);
            f.push_str(&log.join(" / "));
            log.clear();
            failing = Some(k);
        } else if let Some(r) = result_line(line) {
            match r.and_then(|r| take(&mut benches, &package, r, &mut notes)) {
                Ok(()) => {}
                Err(why) => notes.push(format!("{place}: {why}; the line is left out")),
            }
        } else if let Some((key, value)) = config_line(line) {
            match key {
                "pkg" => package = value.to_string(),
                "goos" => env.os = Some(value.to_string()),
                "goarch" => env.arch = Some(value.to_string()),
                "cpu" => env.cpu_model = Some(value.to_string()),
                _ => {}
            }
        }
    }
    if benches.is_empty() {
        let why = match notes.is_empty() {
            true => {
                "Go test output without a benchmark result line (was -bench given?)".to_string()
            }
            false => format!(
                "Go benchmark output, no result line of it read: {}",
                notes.join("; ")
            ),
        };
        return Err(ImportError::at("", why));
    }
    Ok((document(env, benches), notes))
}

/// The benchmark a `--- FAIL: BenchmarkX` line (alone, or after the name) names.
fn failed_benchmark(line: &str) -> Option<&str> {
    let at = line.find("--- FAIL: Benchmark")?;
    line[at + "--- FAIL: ".len()..].split_whitespace().next()
}

fn bench_index(benches: &mut Vec<Reading>, package: &str, name: &str) -> usize {
    // A failed benchmark is named without its -P suffix; a result line with it.
    let same = |b: &Reading| {
        b.package == package
            && (b.name == name
                || b.name
                    .rsplit_once('-')
                    .is_some_and(|(n, p)| n == name && p.parse::<u32>().is_ok()))
    };
    match benches.iter().position(same) {
        Some(k) => k,
        None => {
            benches.push(Reading {
                package: package.to_string(),
                name: name.to_string(),
                metrics: Vec::new(),
                samples: Vec::new(),
                failure: None,
            });
            benches.len() - 1
        }
    }
}

/// One result line into its benchmark: totals over its iterations, the metrics of its
/// first line (a line with others is refused, as benchstat would not pool it).
fn take(
    benches: &mut Vec<Reading>,
    package: &str,
    r: ResultLine<'_>,
    notes: &mut Vec<String>,
) -> Result<(), ImportError> {
    let mut metrics = Vec::new();
    let mut totals = Vec::new();
    for (v, unit) in &r.values {
        match metric_of(unit) {
            Some(m) if !metrics.contains(&m) => {
                metrics.push(m);
                totals.push(crate::whole_ns(v * r.iterations as f64)?);
            }
            Some(_) => return Err(ImportError::from(format!("{unit} twice"))),
            None => {
                let note = match *unit {
                    "MB/s" => "MB/s is not kept: it is the bytes b.SetBytes gave over ns/op, which is kept".to_string(),
                    _ => format!("{unit} is not per operation and is not kept"),
                };
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
        }
    }
    if !metrics.contains(&Metric::WallTime) {
        return Err(ImportError::from(format!("{}: no ns/op", r.name)));
    }
    let k = bench_index(benches, package, r.name);
    let b = &mut benches[k];
    if b.samples.is_empty() {
        b.metrics = metrics.clone();
    }
    if b.metrics != metrics {
        return Err(ImportError::from(format!(
            "{}: other units than its earlier lines",
            r.name
        )));
    }
    b.samples.push((r.iterations, totals));
    Ok(())
}

fn document(env: Environment, benches: Vec<Reading>) -> ResultDocument {
    let mut doc = crate::document(crate::ForeignTool::Go, env);
    let packages: std::collections::BTreeSet<&str> =
        benches.iter().map(|b| b.package.as_str()).collect();
    let qualify = packages.len() > 1;
    for r in &benches {
        let name = if qualify && !r.package.is_empty() {
            format!("{}.{}", r.package, r.name)
        } else {
            r.name.clone()
        };
        doc.benchmarks.push(benchmark(&name, r));
    }
    doc
}

fn benchmark(name: &str, r: &Reading) -> Benchmark {
    let mut b = Benchmark::new(name, BenchmarkKind::Function);
    for m in &r.metrics {
        let info = match m {
            Metric::Named(_) => MetricInfo {
                unit: Unit::Count,
                source: Source::Measured,
                aggregate: Aggregate::Sum,
            },
            known => MetricInfo::measured(known),
        };
        b.metrics.insert(m.clone(), info);
    }
    // Sub-benchmark parts such as size=64, and GOMAXPROCS, as benchfmt splits a name.
    let (base, procs) = match r.name.rsplit_once('-') {
        Some((n, p)) if p.parse::<u32>().is_ok() => (n, Some(p)),
        _ => (r.name.as_str(), None),
    };
    for part in base.split('/').skip(1) {
        if let Some((k, v)) = part.split_once('=') {
            b.parameters.insert(k.to_string(), v.to_string());
        }
    }
    if let Some(p) = procs {
        b.parameters.insert("gomaxprocs".into(), p.to_string());
    }
    for (n, totals) in &r.samples {
        let values: Vec<(Metric, u64)> = r
            .metrics
            .iter()
            .cloned()
            .zip(totals.iter().copied())
            .collect();
        b.samples.push(*n, &values);
    }
    if let Some(f) = &r.failure {
        let why = if f.is_empty() {
            "--- FAIL with no log".to_string()
        } else {
            f.clone()
        };
        b.set_function(FunctionInfo {
            failure: Some(why),
            ..FunctionInfo::default()
        });
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = include_str!("../tests/fixtures/go/go-v.txt");

    fn times(doc: &ResultDocument, name: &str) -> Vec<u64> {
        doc.benchmark(name)
            .unwrap()
            .samples
            .values(&Metric::WallTime)
            .unwrap()
            .to_vec()
    }

    #[test]
    fn each_result_line_is_a_sample_of_its_iterations() {
        let (doc, notes) = read(FIXTURE).unwrap();
        // BenchmarkSum/size=64-2 \t 1000000 \t 19.01 ns/op (one of its three lines): the
        // total over the line's iterations, in whole nanoseconds.
        let b = doc.benchmark("BenchmarkSum/size=64-2").unwrap();
        assert_eq!(b.samples.len(), 3);
        assert_eq!(b.parameters["size"], "64");
        assert_eq!(b.parameters["gomaxprocs"], "2");
        let alloc = doc.benchmark("BenchmarkAlloc-2").unwrap();
        assert_eq!(
            alloc.samples.values(&Metric::AllocatedBytes).unwrap()[0],
            256 * 353_172
        );
        assert_eq!(
            alloc.samples.values(&Metric::Allocations).unwrap()[0],
            353_172
        );
        assert_eq!(
            alloc
                .samples
                .values(&Metric::Named("widgets".into()))
                .unwrap()[0],
            3 * 353_172
        );
        assert_eq!(
            times(&doc, "BenchmarkAlloc-2")[0],
            (65.18f64 * 353_172.0).round() as u64
        );
        assert_eq!(doc.environment.cpu_model.as_deref(), Some("AMD EPYC"));
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn a_failed_benchmark_keeps_its_log_and_tests_and_logs_are_passed_over() {
        let (doc, _) = read(FIXTURE).unwrap();
        let failed = doc.benchmark("BenchmarkFails").unwrap();
        assert_eq!(
            failed.function().unwrap().failure.as_deref(),
            Some("sums_test.go:39: setting up / sums_test.go:40: the fixture could not be opened")
        );
        // The other package's failing test and its benchmark that never ran add nothing.
        assert_eq!(doc.benchmarks.len(), 4);
        // Plain output prints the log after the --- FAIL line.
        let plain = include_str!("../tests/fixtures/go/go-plain.txt");
        let (doc, _) = read(plain).unwrap();
        let f = doc
            .benchmark("BenchmarkFails")
            .unwrap()
            .function()
            .unwrap()
            .failure
            .clone();
        assert!(f.unwrap().ends_with("the fixture could not be opened"));
    }

    #[test]
    fn test2json_events_read_as_the_text_they_carry() {
        let events = include_str!("../tests/fixtures/go/go-test2json.json");
        assert!(recognises_events(events));
        let (doc, _) = read(&events_text(events).unwrap().0).unwrap();
        // -count 2: a result line's name and numbers arrive in separate events.
        assert_eq!(
            doc.benchmark("BenchmarkSum/size=1024-2")
                .unwrap()
                .samples
                .len(),
            2
        );
        assert!(doc
            .benchmark("BenchmarkFails")
            .unwrap()
            .function()
            .unwrap()
            .failure
            .is_some());
        let bad = "{\"Action\":\"output\",\"Output\":\"x\"}\n{\"Action\": oops}\n";
        assert_eq!(events_text(bad).unwrap_err().place, "line 2");
    }

    #[test]
    fn a_bad_line_is_said_and_the_rest_kept() {
        let text = "pkg: p\n\
            BenchmarkA-2 \t 100 \t 10.0 ns/op\n\
            BenchmarkA-2 \t 100 \t 12.0\n\
            BenchmarkA-2 \t 0 \t 10.0 ns/op\n\
            BenchmarkA-2 \t 100 \t NaN ns/op\n\
            BenchmarkA-2 \t 100 \t 11.0 ns/op \t 5 B/op\n\
            BenchmarkB-2 \t 100 \t 20.0 ns/op \t 3.0 MB/s\n\
            BenchmarkA-2 \t 100 \t 11.0 ns/op\n";
        let (doc, notes) = read(text).unwrap();
        assert_eq!(times(&doc, "BenchmarkA-2"), [1000, 1100]);
        assert_eq!(times(&doc, "BenchmarkB-2"), [2000]);
        assert_eq!(notes.len(), 5, "{notes:?}");
        assert!(
            notes[0].starts_with("line 3: a result needs value-unit pairs"),
            "{notes:?}"
        );
        assert!(
            notes[1].starts_with("line 4: \"0\" is not a positive iteration count"),
            "{notes:?}"
        );
        assert!(
            notes[2].starts_with("line 5: \"NaN\" ns/op is not a value"),
            "{notes:?}"
        );
        assert!(
            notes[3].contains("other units than its earlier lines"),
            "{notes:?}"
        );
        assert_eq!(
            notes[4],
            "MB/s is not kept: it is the bytes b.SetBytes gave over ns/op, which is kept"
        );
        assert!(read("PASS\nok  \tp\t0.1s\n").is_err());
    }

    #[test]
    fn benchmarks_of_several_packages_are_named_by_package() {
        let text = "pkg: a\nBenchmarkX-2 1 5 ns/op\npkg: b\nBenchmarkX-2 1 7 ns/op\n";
        let (doc, _) = read(text).unwrap();
        assert_eq!(times(&doc, "a.BenchmarkX-2"), [5]);
        assert_eq!(times(&doc, "b.BenchmarkX-2"), [7]);
    }
}
