//! gungraun's (formerly iai-callgrind's) benchmark summaries: a `summary.json` per
//! benchmark (`--save-summary=json`, under `target/gungraun`), or the JSON lines
//! `--output-format=json` prints, one summary a line. Callgrind's counts are exact for the
//! one run it simulated: each benchmark's `Callgrind` profile total (its `new` values;
//! `old` is gungraun's own baseline) is kept as simulated counts of one call —
//! instructions, data reads and writes, L1 and last-level data misses, branches — and
//! never as a time.

use crate::error::ImportError;
use crate::{ForeignTool, Reading};
use plumb_model::{
    Benchmark, BenchmarkKind, Environment, Metric, MetricInfo, ResultDocument, SimulatedCounts,
    Source,
};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A gungraun summary, or a list holding one (the others are said and left out).
pub fn recognises(v: &Value) -> bool {
    match v.as_array() {
        Some(list) => list.iter().any(one),
        None => one(v),
    }
}

/// A summary with the place it was found (a file, a line).
pub type Placed = (String, Value);

/// Summaries one a line, as `--output-format=json` prints them, each with its line; a
/// line that is not one (a cut line) is a note. `None` when no line is one.
pub fn lines(text: &str) -> Option<(Vec<Placed>, Vec<String>)> {
    let mut values = Vec::new();
    let mut notes = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let place = format!("line {}", i + 1);
        match serde_json::from_str::<Value>(line) {
            Ok(v) if one(&v) => values.push((place, v)),
            Ok(_) => notes.push(format!("{place}: not a gungraun summary; left out")),
            Err(e) => notes.push(format!("{place}: not JSON ({e}); left out")),
        }
    }
    (!values.is_empty()).then_some((values, notes))
}

/// One summary: a benchmark's module path and profiles.
fn one(v: &Value) -> bool {
    v.get("module_path").is_some() && v["profiles"].is_array()
}

/// Every `summary.json` under `dir`, in path order; `None` when there is none.
pub fn summaries_under(dir: &Path) -> Option<Vec<PathBuf>> {
    let mut found = Vec::new();
    crate::walk(dir, |p, is_dir| {
        if !is_dir && p.file_name().is_some_and(|n| n == "summary.json") {
            found.push(p.to_path_buf());
        }
        is_dir
    });
    found.sort();
    (!found.is_empty()).then_some(found)
}

/// The summaries in the files `paths`, each read on its own (a bad file is a note).
pub fn read_files(paths: &[PathBuf]) -> Result<(ResultDocument, Vec<String>), ImportError> {
    let mut values = Vec::new();
    let mut notes = Vec::new();
    for p in paths {
        let read = std::fs::read_to_string(p).map_err(|e| e.to_string());
        match read.and_then(|t| serde_json::from_str::<Value>(&t).map_err(|e| e.to_string())) {
            Ok(v) => values.push((p.display().to_string(), v)),
            Err(e) => notes.push(format!("{}: {e}; left out", p.display())),
        }
    }
    let (doc, mut more) = read_all(values);
    notes.append(&mut more);
    Ok((doc, notes))
}

/// A summary or a list of them, from one file.
pub fn read(v: &Value) -> Result<(ResultDocument, Vec<String>), ImportError> {
    let list = match v.as_array() {
        Some(list) => list.clone(),
        None => vec![v.clone()],
    };
    Ok(read_all(
        list.into_iter()
            .enumerate()
            .map(|(i, v)| (format!("summary {}", i + 1), v))
            .collect(),
    ))
}

/// Summaries with the place each was found.
pub fn read_all(values: Vec<Placed>) -> (ResultDocument, Vec<String>) {
    let mut reading = Reading::new(ForeignTool::Gungraun, Environment::default());
    for (place, v) in values {
        let Some(module) = v["module_path"].as_str() else {
            reading
                .notes
                .push(format!("{place}: no module_path; left out"));
            continue;
        };
        let name = match v["id"].as_str() {
            Some(id) => format!("{module}.{id}"),
            None => module.to_string(),
        };
        let mut b = Benchmark::new(name, BenchmarkKind::Function);
        let filled = counts(&v).map(|sim| b.simulated = Some(sim));
        reading.keep(&place, b, filled);
    }
    reading.done()
}

/// Callgrind's metric names, and the model's simulated metric each adds to.
const COUNTED: [(&str, Metric); 13] = [
    ("Ir", Metric::Instructions),
    ("I1mr", Metric::I1Misses),
    ("ILmr", Metric::LlInstructionMisses),
    ("Dr", Metric::DataReads),
    ("Dw", Metric::DataWrites),
    ("D1mr", Metric::D1Misses),
    ("D1mw", Metric::D1Misses),
    ("DLmr", Metric::LlMisses),
    ("DLmw", Metric::LlMisses),
    ("Bc", Metric::ConditionalBranches),
    ("Bcm", Metric::ConditionalMispredictions),
    ("Bi", Metric::IndirectBranches),
    ("Bim", Metric::IndirectMispredictions),
];

/// The `Callgrind` profile's total counts as one simulated run of one call.
fn counts(v: &Value) -> Result<SimulatedCounts, ImportError> {
    let profiles = v["profiles"].as_array().ok_or("no profiles")?;
    let callgrind = profiles
        .iter()
        .find(|p| p["tool"] == "Callgrind")
        .ok_or("no Callgrind profile (gungraun ran other tools only)")?;
    let metrics = &callgrind["data"]["total"]["metrics"];
    let schema = v["version"].as_str().unwrap_or("?");
    let mut sim = SimulatedCounts::new(format!("callgrind (gungraun summary v{schema})"), None);
    let mut totals: Vec<(Metric, u64)> = Vec::new();
    for (name, metric) in COUNTED {
        let Some(new) = metrics.get(name).map(|m| &m["values"]["new"]) else {
            continue;
        };
        let count = new
            .as_u64()
            .ok_or_else(|| format!("{name}: {new} is not a count"))?;
        match totals.iter_mut().find(|(m, _)| *m == metric) {
            Some((_, t)) => *t += count,
            None => totals.push((metric, count)),
        }
    }
    if !totals.iter().any(|(m, _)| *m == Metric::Instructions) {
        return Err("no instruction count (Ir) in the Callgrind total".into());
    }
    for (m, _) in &totals {
        sim.metrics
            .insert(m.clone(), MetricInfo::known(m, Source::Simulated));
    }
    sim.samples.push(1, &totals);
    Ok(sim)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/gungraun");

    fn instructions(doc: &ResultDocument, name: &str) -> f64 {
        let sim = doc.benchmark(name).unwrap().simulated.as_ref().unwrap();
        sim.per_op(&Metric::Instructions)[0]
    }

    #[test]
    fn a_directory_of_summaries_and_json_lines_are_counts_of_one_call() {
        let dir = Path::new(FIXTURES).join("before");
        let files = summaries_under(&dir).unwrap();
        assert_eq!(files.len(), 2);
        let (doc, notes) = read_files(&files).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        // bench_sum.small: "Ir": {"values": {"new": 242}}; Dr 69, D1mr 0 + D1mw 0.
        assert_eq!(instructions(&doc, "sums::sums::bench_sum.small"), 242.0);
        let sim = doc.benchmarks[1].simulated.as_ref().unwrap();
        assert_eq!(sim.per_op(&Metric::DataReads), [69.0]);
        assert!(doc.benchmarks[1].samples.is_empty());
        // after.jsonl: "Ir": {"values": {"new": 961, "old": 242}}: the new run.
        let text = std::fs::read_to_string(format!("{FIXTURES}/after.jsonl")).unwrap();
        let (placed, notes) = lines(&text).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        let (doc, _) = read_all(placed);
        assert_eq!(instructions(&doc, "sums::sums::bench_sum.small"), 961.0);
        // The last line cut: the first kept, the second said.
        let (placed, notes) = lines(&text[..text.len() - 100]).unwrap();
        assert_eq!(placed.len(), 1);
        assert!(notes[0].starts_with("line 2: not JSON"), "{notes:?}");
    }

    #[test]
    fn a_summary_without_callgrind_or_with_a_bad_count_fails_alone() {
        let text = std::fs::read_to_string(format!("{FIXTURES}/after.jsonl")).unwrap();
        let mut lines: Vec<Value> = lines(&text)
            .unwrap()
            .0
            .into_iter()
            .map(|(_, v)| v)
            .collect();
        lines[0]["profiles"][0]["tool"] = "DHAT".into();
        lines[1]["profiles"][0]["data"]["total"]["metrics"]["Ir"]["values"]["new"] = "x".into();
        let (doc, notes) = read(&Value::Array(lines)).unwrap();
        assert_eq!(doc.benchmarks.len(), 2);
        assert!(notes[0].contains("no Callgrind profile"), "{notes:?}");
        assert!(notes[1].contains("Ir: \"x\" is not a count"), "{notes:?}");
    }
}
