//! criterion.rs's output directory (`target/criterion`, or any directory inside it, down
//! to one benchmark's `new/`): each `<benchmark>/<baseline>/` holds `benchmark.json` (its
//! ids and throughput) and `sample.json` (`iters` and `times`: each sample's total
//! nanoseconds over its iterations, linear or flat sampling). The baseline read is `new`
//! (the last run) unless one is named: `target/criterion@base` reads `base` (the run
//! before), `@NAME` what `--save-baseline NAME` kept, so two runs compare without a copy.
//! Every sample is kept; criterion's own estimates (`estimates.json`) are not needed, as
//! plumb computes its own. A benchmark whose files are bad is kept as a failure saying
//! which file and why, and the others are read.

use crate::error::ImportError;
use plumb_model::{Benchmark, BenchmarkKind, Environment, Metric, MetricInfo, ResultDocument};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The baseline criterion writes each run to, read when none is named.
pub const LAST_RUN: &str = "new";

/// A directory that is one benchmark's baseline: it holds the benchmark's ids.
fn is_baseline(dir: &Path) -> bool {
    dir.join("benchmark.json").is_file()
}

/// The `baseline` directories under `dir` (itself, when it is one), in name order, and
/// the names of every baseline seen (for saying which there are when `baseline` is not).
fn runs(dir: &Path, baseline: &str) -> (Vec<PathBuf>, Vec<String>) {
    if is_baseline(dir) {
        return (vec![dir.to_path_buf()], Vec::new());
    }
    let (mut found, mut names) = (Vec::new(), Vec::new());
    crate::walk(dir, |p, is_dir| {
        let name = p.file_name().unwrap_or_default();
        if !is_dir || name == "report" || name == "change" {
            return false;
        }
        if !is_baseline(p) {
            return true;
        }
        if name == baseline {
            found.push(p.to_path_buf());
        }
        let name = name.to_string_lossy().to_string();
        if !names.contains(&name) {
            names.push(name);
        }
        false
    });
    found.sort();
    names.sort();
    (found, names)
}

/// Whether `dir` holds criterion's output.
pub fn holds_output(dir: &Path) -> bool {
    !runs(dir, LAST_RUN).1.is_empty()
}

/// `DIR@NAME` as criterion's output in DIR at its baseline NAME, when DIR is a directory
/// and `path` itself is not there (a directory whose name has an `@` is read as itself).
pub fn at_baseline(path: &Path) -> Option<(PathBuf, String)> {
    if path.exists() {
        return None;
    }
    let text = path.to_str()?;
    let (dir, name) = text.rsplit_once('@')?;
    let dir = PathBuf::from(dir);
    (!name.is_empty() && !name.contains('/') && dir.is_dir()).then(|| (dir, name.to_string()))
}

/// Reads every benchmark under `dir` at `baseline` (`LAST_RUN` unless one was named).
pub fn read(dir: &Path, baseline: &str) -> Result<(ResultDocument, Vec<String>), ImportError> {
    let (found, names) = runs(dir, baseline);
    if found.is_empty() && !names.is_empty() {
        return Err(ImportError::at(
            "",
            format!(
                "criterion's output has no baseline {baseline:?}: it has {} (name one as DIR@NAME)",
                names.join(", ")
            ),
        ));
    }
    if found.is_empty() {
        return Err(ImportError::at(
            "",
            "neither a criterion output directory (no <benchmark>/new/benchmark.json under it) nor gungraun's (no summary.json)",
        ));
    }
    let mut reading = crate::Reading::new(crate::ForeignTool::Criterion, Environment::default());
    for new in found {
        let shown = new.strip_prefix(dir).unwrap_or(&new).display().to_string();
        let b = match one(&new) {
            Ok(b) => b,
            Err(e) => {
                reading.notes.push(format!("{shown}: {e}"));
                failed(&new, &shown, &e)
            }
        };
        reading.keep(&shown, b, Ok(()));
    }
    Ok(reading.done())
}

fn json(path: &Path) -> Result<Value, ImportError> {
    let name = path
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ImportError::at(&name, e.to_string()))?;
    serde_json::from_str(&text).map_err(|e| ImportError::at(&name, format!("not JSON ({e})")))
}

/// One benchmark from its `new/` directory.
fn one(new: &Path) -> Result<Benchmark, ImportError> {
    let id = json(&new.join("benchmark.json"))?;
    let name = id["full_id"]
        .as_str()
        .ok_or_else(|| ImportError::at("benchmark.json", "no \"full_id\""))?;
    let sample = json(&new.join("sample.json"))?;
    let at = |why: String| ImportError::at("sample.json", why);
    if sample.is_array() {
        return Err(at(
            "the layout of criterion before 0.3 ([[iters], [times]]), which plumb does not read"
                .into(),
        ));
    }
    let numbers = |key: &str| -> Result<Vec<f64>, ImportError> {
        let list = sample[key]
            .as_array()
            .ok_or_else(|| at(format!("no \"{key}\" list")))?;
        list.iter()
            .enumerate()
            .map(|(i, v)| match v.as_f64() {
                Some(x) if x.is_finite() && x >= 0.0 => Ok(x),
                _ => Err(at(format!("{key}[{i}] is {v}, not a count or time"))),
            })
            .collect()
    };
    let (iters, times) = (numbers("iters")?, numbers("times")?);
    if iters.len() != times.len() || iters.is_empty() {
        return Err(at(format!(
            "{} iters against {} times",
            iters.len(),
            times.len()
        )));
    }
    let mut b = benchmark(name, &id);
    for (i, (n, t)) in iters.iter().zip(&times).enumerate() {
        if n.round() < 1.0 {
            return Err(at(format!("iters[{i}] is {n}: a sample of no iterations")));
        }
        b.samples.push(
            n.round() as u64,
            &[(
                Metric::WallTime,
                crate::whole_ns(*t).map_err(|e| at(format!("times[{i}]: {e}")))?,
            )],
        );
    }
    Ok(b)
}

fn benchmark(name: &str, id: &Value) -> Benchmark {
    let mut b = Benchmark::new(name, BenchmarkKind::Function);
    b.group = id["group_id"]
        .as_str()
        .filter(|g| *g != name)
        .map(str::to_string);
    if let Some(v) = id["value_str"].as_str() {
        b.parameters.insert("value".into(), v.to_string());
    }
    if let Some(t) = throughput(&id["throughput"]) {
        b.parameters.insert("throughput".into(), t);
    }
    b.metrics
        .insert(Metric::WallTime, MetricInfo::measured(&Metric::WallTime));
    b
}

/// criterion's throughput, an amount per iteration (its rate follows from the time kept):
/// `{"Bytes": 1024}` as "1024 bytes per iteration".
fn throughput(t: &Value) -> Option<String> {
    let (kind, n) = t.as_object()?.iter().next()?;
    let what = match kind.as_str() {
        "Bytes" => "bytes",
        "BytesDecimal" => "bytes (decimal units)",
        "Elements" => "elements",
        other => other,
    };
    Some(format!("{n} {what} per iteration"))
}

/// A benchmark plumb could not read, kept under its name (from `benchmark.json` when that
/// file can be read, else its directory) with why.
fn failed(new: &Path, shown: &str, e: &ImportError) -> Benchmark {
    let name = json(&new.join("benchmark.json"))
        .ok()
        .and_then(|id| id["full_id"].as_str().map(str::to_string))
        .unwrap_or_else(|| match Path::new(shown).parent() {
            Some(p) if !p.as_os_str().is_empty() => p.display().to_string(),
            _ => shown.to_string(),
        });
    let mut b = Benchmark::new(&name, BenchmarkKind::Function);
    crate::not_imported(&mut b, &e.to_string());
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name)
    }

    #[test]
    fn every_sample_is_kept_over_its_iterations() {
        let (doc, notes) = read(&fixture("criterion-before"), LAST_RUN).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        let names: Vec<&str> = doc.benchmarks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["spin_10us", "sum128"]);
        let b = doc.benchmark("sum128").unwrap();
        // sample.json: iters[0] = 17057.0, times[0] = 193467.0 (ns in all).
        assert_eq!(b.samples.len(), 100);
        assert_eq!(b.samples.iterations()[0], 17057);
        assert_eq!(b.samples.values(&Metric::WallTime).unwrap()[0], 193_467);
        // A directory inside target/criterion reads its own benchmarks only.
        let (one, _) = read(&fixture("criterion-before/sum128"), LAST_RUN).unwrap();
        assert_eq!(one.benchmarks.len(), 1);
    }

    fn write(dir: &Path, bench: &str, sample: &str) {
        let new = dir.join(bench).join("new");
        std::fs::create_dir_all(&new).unwrap();
        let id = format!(
            r#"{{"group_id":"g","function_id":"{bench}","value_str":null,"full_id":"g/{bench}"}}"#
        );
        std::fs::write(new.join("benchmark.json"), id).unwrap();
        std::fs::write(new.join("sample.json"), sample).unwrap();
    }

    #[test]
    fn a_bad_benchmark_fails_alone_naming_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let ok = r#"{"sampling_mode":"Flat","iters":[10.0,10.0],"times":[100.0,120.0]}"#;
        write(dir.path(), "fine", ok);
        write(
            dir.path(),
            "nan",
            r#"{"iters":[10.0,10.0],"times":[100.0,-1.0]}"#,
        );
        write(dir.path(), "zero", r#"{"iters":[0.0],"times":[100.0]}"#);
        write(dir.path(), "cut", r#"{"iters":[10.0],"ti"#);
        write(dir.path(), "old", "[[10.0],[100.0]]");
        write(
            dir.path(),
            "uneven",
            r#"{"iters":[10.0,10.0],"times":[100.0]}"#,
        );
        let (doc, notes) = read(dir.path(), LAST_RUN).unwrap();
        assert_eq!(doc.benchmark("g/fine").unwrap().samples.len(), 2);
        let failure = |n: &str| {
            doc.benchmark(n)
                .unwrap()
                .function()
                .unwrap()
                .failure
                .clone()
                .unwrap()
        };
        assert!(
            failure("g/nan").contains("sample.json: times[1] is -1.0"),
            "{}",
            failure("g/nan")
        );
        assert!(failure("g/zero").contains("iters[0] is 0: a sample of no iterations"));
        assert!(failure("g/cut").contains("sample.json: not JSON"));
        assert!(failure("g/old").contains("before 0.3"));
        assert!(failure("g/uneven").contains("2 iters against 1 times"));
        assert_eq!(notes.len(), 5, "{notes:?}");
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("nan/new: sample.json: times[1]")),
            "{notes:?}"
        );
    }

    #[test]
    fn a_directory_without_criterion_output_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("x/new")).unwrap();
        let e = read(dir.path(), LAST_RUN).unwrap_err();
        assert!(
            e.why.contains("neither a criterion output directory"),
            "{e}"
        );
    }
}
