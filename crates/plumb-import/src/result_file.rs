//! A result file read whatever wrote it: plumb's own (any version it reads, migrated), or
//! another tool's export or output directory, found from the content or named; with the
//! notes a reader needs (what an import carried and left out, which version was migrated).
use crate::{import_path, read_text, ForeignTool, ImportError, Imported};
use plumb_model::{format, Carried, ModelError, ResultDocument, FORMAT_VERSION};
use std::fmt;
use std::path::{Path, PathBuf};

/// A result read, and what to say about it.
pub struct ReadResult {
    pub doc: ResultDocument,
    pub notes: Vec<String>,
}

/// Why a result file cannot be read; each names the file.
#[derive(Debug)]
pub enum UnreadableResult {
    Io {
        path: PathBuf,
        cause: std::io::Error,
    },
    Import {
        path: PathBuf,
        error: ImportError,
    },
    Model {
        path: PathBuf,
        error: ModelError,
    },
    /// Neither plumb's nor any format plumb imports.
    NotAResult(PathBuf),
    /// Nothing in it but white space.
    Empty(PathBuf),
    /// Read as `tool`'s, and no benchmark with a figure came of it; `notes` say what was
    /// left out and why.
    NothingImported {
        path: PathBuf,
        tool: ForeignTool,
        notes: Vec<String>,
    },
}

const NOT_IMPORTED: &str = "not a plumb result, nor any format plumb imports (hyperfine, Google Benchmark, criterion, Go, pytest-benchmark, JMH, BenchmarkDotNet, asv, Catch2 XML, Bencher Metric Format; --format names one)";

impl fmt::Display for UnreadableResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnreadableResult::Io { path, cause } => {
                write!(f, "cannot read {}: {cause}", path.display())
            }
            UnreadableResult::Import { path, error } => write!(f, "{}: {error}", path.display()),
            UnreadableResult::Model { path, error } => write!(f, "{}: {error}", path.display()),
            UnreadableResult::NotAResult(path) => write!(f, "{}: {NOT_IMPORTED}", path.display()),
            UnreadableResult::Empty(path) => write!(
                f,
                "{}: the file is empty: nothing was written to it (did the run that makes it fail?)",
                path.display()
            ),
            UnreadableResult::NothingImported { path, tool, notes } => {
                write!(
                    f,
                    "{}: read as {} output, no benchmark with a figure in it",
                    path.display(),
                    tool.name()
                )?;
                if notes.is_empty() {
                    return Ok(());
                }
                let notes: Vec<String> = (notes.iter())
                    .map(|n| format!("{}: {n}", path.display()))
                    .collect();
                write!(f, " ({})", notes.join("; "))
            }
        }
    }
}

impl std::error::Error for UnreadableResult {}

/// Reads `path`: a directory (or criterion's at a baseline, `DIR@NAME`), or a file whose
/// format is `forced`, as another tool's; else plumb's own or any format recognised from
/// the content.
pub fn read_result(
    path: &Path,
    forced: Option<ForeignTool>,
) -> Result<ReadResult, UnreadableResult> {
    if path.is_dir() || forced.is_some() || crate::criterion::at_baseline(path).is_some() {
        let imported = import_path(path, forced).map_err(|error| UnreadableResult::Import {
            path: path.to_path_buf(),
            error,
        })?;
        let imported = imported.ok_or_else(|| UnreadableResult::NotAResult(path.to_path_buf()))?;
        return said(path, imported);
    }
    let text = read_file(path)?;
    parse_result(path, &text)
}

/// A file's text, or why not.
pub fn read_file(path: &Path) -> Result<String, UnreadableResult> {
    std::fs::read_to_string(path).map_err(|cause| UnreadableResult::Io {
        path: path.to_path_buf(),
        cause,
    })
}

/// A result from the `text` read from `path`, as `read_result` reads it.
pub fn parse_result(path: &Path, text: &str) -> Result<ReadResult, UnreadableResult> {
    if text.trim().is_empty() {
        return Err(UnreadableResult::Empty(path.to_path_buf()));
    }
    let model = |error| UnreadableResult::Model {
        path: path.to_path_buf(),
        error,
    };
    let doc = match ResultDocument::from_json(text) {
        Ok(doc) => doc,
        Err(e @ (ModelError::Foreign { .. } | ModelError::NotJson(_))) => {
            let imported =
                read_text(text, None, Some(path)).map_err(|error| UnreadableResult::Import {
                    path: path.to_path_buf(),
                    error,
                })?;
            return match imported {
                Some(imported) => said(path, imported),
                None if matches!(e, ModelError::NotJson(_)) => Err(model(e)),
                None => Err(UnreadableResult::NotAResult(path.to_path_buf())),
            };
        }
        Err(e) => return Err(model(e)),
    };
    let notes = doc.migrated_from.map(|v| {
        format!(
            "{} is a version-{v} result; read as version {FORMAT_VERSION} ({}; see docs/result-format.md)",
            path.display(),
            match v {
                1 => "samples as metric columns, measured values typed; findings keep their recorded words",
                2 => "measured values typed: times in ns, moments in RFC 3339; findings keep their recorded words",
                _ => "findings keep their recorded words (newer ones carry typed evidence)",
            }
        )
    });
    Ok(ReadResult {
        doc,
        notes: notes.into_iter().collect(),
    })
}

/// An imported result with its notes: what it is, what it carried, each part of it that
/// was not taken, and the benchmarks that carry only their tool's summary. One from
/// which no benchmark with a figure came (a file of another format forced, an empty run)
/// is refused: an empty table and exit 0 would say all is well.
fn said(path: &Path, i: Imported) -> Result<ReadResult, UnreadableResult> {
    // A figure: samples, the tool's summary, or simulated counts (gungraun's).
    let figureless =
        |b: &plumb_model::Benchmark| Carried::of(b) == Carried::Nothing && b.simulated.is_none();
    if i.doc.benchmarks.iter().all(figureless) {
        return Err(UnreadableResult::NothingImported {
            path: path.to_path_buf(),
            tool: i.tool,
            notes: i.notes,
        });
    }
    let shown = path.display();
    let mut notes = vec![format!(
        "{shown} is {} export: read are {}; no machine record beyond its own, no run order",
        format::a_or_an(i.tool.name()),
        i.tool.carries()
    )];
    notes.extend(i.notes.iter().map(|n| format!("{shown}: {n}")));
    let summaries: Vec<&str> = (i.doc.benchmarks.iter())
        .filter(|b| Carried::of(b) == Carried::Summary)
        .map(|b| b.name.as_str())
        .collect();
    if !summaries.is_empty() {
        notes.push(format!(
            "{shown}: {} of {} benchmarks carry {}'s own summary only ({}): verdicts from what a summary holds, no checks of samples",
            summaries.len(),
            i.doc.benchmarks.len(),
            i.tool.name(),
            listed(&summaries)
        ));
    }
    Ok(ReadResult { doc: i.doc, notes })
}

/// Names as a short list: the first three, then how many more.
fn listed(names: &[&str]) -> String {
    match names {
        [a] => (*a).to_string(),
        [first @ .., last] if names.len() <= 3 => format!("{} and {last}", first.join(", ")),
        _ => format!("{}, and {} more", names[..3].join(", "), names.len() - 3),
    }
}
