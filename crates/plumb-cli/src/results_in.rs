//! Reading a result file: plumb's own (any version it reads), or another tool's export or
//! output directory it imports, its notes said on stderr, its missing statistics completed.
use crate::exit::CliError;
use plumb_analysis::complete_statistics;
use plumb_import::ForeignTool;
use plumb_model::{ModelError, ResultDocument};
use std::path::Path;

/// Reads a result file: plumb's own (any version it reads), or another tool's export or
/// output directory it imports, found from the content or named by `forced`, saying which
/// when it is not plumb's. Statistics a result lacks are completed.
pub fn load(path: &Path, forced: Option<ForeignTool>) -> Result<ResultDocument, CliError> {
    // A directory is another tool's output (criterion's target/criterion); a format
    // named by --format is read as that tool's, whatever the content looks like.
    if path.is_dir() || forced.is_some() {
        let failed = |e: &dyn std::fmt::Display| CliError::msg(format!("{}: {e}", path.display()));
        let imported = plumb_import::import_path(path, forced).map_err(|e| failed(&e))?;
        let mut doc = said(path, imported.ok_or_else(|| failed(&NOT_IMPORTED))?);
        complete_statistics(&mut doc);
        return Ok(doc);
    }
    parse(path, &read(path)?)
}

/// An imported result, its notes said: what it is, what it carried, and each part of it
/// that was not taken.
fn said(path: &Path, i: plumb_import::Imported) -> ResultDocument {
    eprintln!(
        "plumb: note: {} is {} export: read are {}; no machine record beyond its own, no run order",
        path.display(),
        plumb_model::format::a_or_an(i.tool.name()),
        i.tool.carries()
    );
    for note in &i.notes {
        eprintln!("plumb: note: {}: {note}", path.display());
    }
    let summaries: Vec<&str> = (i.doc.benchmarks.iter())
        .filter(|b| plumb_model::Carried::of(b) == plumb_model::Carried::Summary)
        .map(|b| b.name.as_str())
        .collect();
    if !summaries.is_empty() {
        eprintln!(
            "plumb: note: {}: {} of {} benchmarks carry {}'s own summary only ({}): verdicts from what a summary holds, no checks of samples",
            path.display(),
            summaries.len(),
            i.doc.benchmarks.len(),
            i.tool.name(),
            listed(&summaries)
        );
    }
    i.doc
}

/// Names as a short list: the first three, then how many more.
fn listed(names: &[&str]) -> String {
    match names {
        [a] => (*a).to_string(),
        [first @ .., last] if names.len() <= 3 => format!("{} and {last}", first.join(", ")),
        _ => format!("{}, and {} more", names[..3].join(", "), names.len() - 3),
    }
}

/// A file's text, or an error naming it.
pub fn read(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| CliError::msg(format!("cannot read {}: {e}", path.display())))
}

const NOT_IMPORTED: &str = "not a plumb result, nor any format plumb imports (hyperfine, Google Benchmark, criterion, Go, pytest-benchmark, JMH, BenchmarkDotNet, asv, Catch2 XML, Bencher Metric Format; --format names one)";

/// A result from the `text` read from `path`, as `load` reads it.
pub fn parse(path: &Path, text: &str) -> Result<ResultDocument, CliError> {
    let failed = |e: &dyn std::fmt::Display| CliError::msg(format!("{}: {e}", path.display()));
    let mut doc = match ResultDocument::from_json(text) {
        Ok(doc) => doc,
        Err(e @ (ModelError::Foreign { .. } | ModelError::NotJson(_))) => {
            match plumb_import::read_text(text, None, Some(path)).map_err(|e| failed(&e))? {
                Some(imported) => said(path, imported),
                None if matches!(e, ModelError::NotJson(_)) => return Err(failed(&e)),
                None => return Err(failed(&NOT_IMPORTED)),
            }
        }
        Err(e) => return Err(failed(&e)),
    };
    if let Some(v) = doc.migrated_from {
        eprintln!(
            "plumb: note: {} is a version-{v} result; read as version {} ({}; see docs/result-format.md)",
            path.display(),
            plumb_model::FORMAT_VERSION,
            match v {
                1 => "samples as metric columns, measured values typed; findings keep their recorded words",
                2 => "measured values typed: times in ns, moments in RFC 3339; findings keep their recorded words",
                _ => "findings keep their recorded words (newer ones carry typed evidence)",
            }
        );
    }
    complete_statistics(&mut doc);
    Ok(doc)
}
