//! Other tools' results, read into the result model so `compare` and `show` take them
//! like plumb's own. Detected by content, not by file name (or named by `--format`). What a foreign file does not
//! record (the machine, the run order, plumb's checks) is left unknown, never invented.

mod benchmark_dotnet;
mod bmf;
mod criterion;
mod error;
mod go;
mod google_benchmark;
mod hyperfine;
mod jmh;
mod pytest_benchmark;

pub use error::ImportError;
use std::path::Path;

use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{Environment, Invocation, ProducerSettings, ResultDocument, Settings};
use serde_json::Value;

/// Which tool wrote a file plumb imported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForeignTool {
    Hyperfine,
    GoogleBenchmark,
    Criterion,
    Go,
    PytestBenchmark,
    Jmh,
    BenchmarkDotNet,
    Bmf,
}

impl ForeignTool {
    /// Every tool plumb imports, in the order content is tried.
    pub const ALL: [ForeignTool; 8] = [
        ForeignTool::Hyperfine,
        ForeignTool::GoogleBenchmark,
        ForeignTool::Criterion,
        ForeignTool::Go,
        ForeignTool::PytestBenchmark,
        ForeignTool::Jmh,
        ForeignTool::BenchmarkDotNet,
        ForeignTool::Bmf,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ForeignTool::Hyperfine => "hyperfine",
            ForeignTool::GoogleBenchmark => "Google Benchmark",
            ForeignTool::Criterion => "criterion",
            ForeignTool::Go => "Go testing",
            ForeignTool::PytestBenchmark => "pytest-benchmark",
            ForeignTool::Jmh => "JMH",
            ForeignTool::BenchmarkDotNet => "BenchmarkDotNet",
            ForeignTool::Bmf => "Bencher Metric Format",
        }
    }

    /// The name `--format` takes.
    pub fn key(self) -> &'static str {
        match self {
            ForeignTool::Hyperfine => "hyperfine",
            ForeignTool::GoogleBenchmark => "google-benchmark",
            ForeignTool::Criterion => "criterion",
            ForeignTool::Go => "go",
            ForeignTool::PytestBenchmark => "pytest-benchmark",
            ForeignTool::Jmh => "jmh",
            ForeignTool::BenchmarkDotNet => "benchmarkdotnet",
            ForeignTool::Bmf => "bmf",
        }
    }

    /// The tool `--format NAME` names.
    pub fn by_key(key: &str) -> Option<ForeignTool> {
        ForeignTool::ALL.into_iter().find(|t| t.key() == key)
    }

    /// What its exports carry of each benchmark, said when one is read.
    pub fn carries(self) -> &'static str {
        match self {
            ForeignTool::Hyperfine => "each command's runs",
            ForeignTool::GoogleBenchmark => {
                "each benchmark's repetitions, each over its iterations"
            }
            ForeignTool::Criterion => "each benchmark's samples, each over its iterations",
            ForeignTool::Go => {
                "each benchmark's result lines (one a -count), each over its iterations"
            }
            ForeignTool::PytestBenchmark => "each benchmark's rounds, each over its iterations",
            ForeignTool::Jmh => "each benchmark's measured iterations (each sampled call in sample mode), its forks as launches",
            ForeignTool::BenchmarkDotNet => {
                "each benchmark's result-phase iterations, each over its operations, by launch"
            }
            ForeignTool::Bmf => "one value per benchmark and measure (a summary)",
        }
    }
}

/// Another tool's results read into a document, with a note for each part of the input
/// that was not taken (a malformed line, a benchmark whose files are bad).
#[derive(Debug)]
pub struct Imported {
    pub tool: ForeignTool,
    pub doc: ResultDocument,
    pub notes: Vec<String>,
}

/// Reads another tool's results from `path`: a file, or a directory (criterion's). The
/// format is found from the content, or is `forced`. `Ok(None)`: no format plumb imports.
pub fn import_path(
    path: &Path,
    forced: Option<ForeignTool>,
) -> Result<Option<Imported>, ImportError> {
    if path.is_dir() {
        return match forced {
            Some(ForeignTool::Criterion) | None => {
                let (doc, notes) = criterion::read(path)?;
                Ok(Some(Imported {
                    tool: ForeignTool::Criterion,
                    doc,
                    notes,
                }))
            }
            Some(t) => Err(ImportError::at(
                path.display().to_string(),
                format!("a directory; {} results are a file", t.name()),
            )),
        };
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| ImportError::at(path.display().to_string(), e.to_string()))?;
    import_text(&text, forced)
}

/// `import_path` for text already read.
pub fn import_text(
    text: &str,
    forced: Option<ForeignTool>,
) -> Result<Option<Imported>, ImportError> {
    let tool = match forced {
        Some(t) => t,
        None => match detect(text) {
            Some(t) => t,
            None => return Ok(None),
        },
    };
    let plain = |doc| Imported {
        tool,
        doc,
        notes: Vec::new(),
    };
    let json = || {
        serde_json::from_str::<Value>(text)
            .map_err(|e| ImportError::at("", format!("not JSON ({e})")))
    };
    Ok(Some(match tool {
        ForeignTool::Hyperfine => plain(hyperfine::read(&json()?)?),
        ForeignTool::GoogleBenchmark => plain(google_benchmark::read(&json()?)?),
        ForeignTool::Criterion => {
            return Err(ImportError::at(
                "",
                "criterion's results are a directory (target/criterion)",
            ))
        }
        ForeignTool::PytestBenchmark => {
            let (doc, notes) = pytest_benchmark::read(&json()?)?;
            Imported { tool, doc, notes }
        }
        ForeignTool::Jmh => {
            let (doc, notes) = jmh::read(&json()?)?;
            Imported { tool, doc, notes }
        }
        ForeignTool::BenchmarkDotNet => {
            let (doc, notes) = benchmark_dotnet::read(&json()?)?;
            Imported { tool, doc, notes }
        }
        ForeignTool::Bmf => {
            let (doc, notes) = bmf::read(&json()?)?;
            Imported { tool, doc, notes }
        }
        ForeignTool::Go => {
            let events = go::recognises_events(text);
            let body = if events {
                go::events_text(text)?
            } else {
                text.to_string()
            };
            let (doc, notes) = go::read(&body)?;
            Imported { tool, doc, notes }
        }
    }))
}

/// The format `text` is in, by its content.
fn detect(text: &str) -> Option<ForeignTool> {
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        if hyperfine::recognises(&v) {
            return Some(ForeignTool::Hyperfine);
        }
        if google_benchmark::recognises(&v) {
            return Some(ForeignTool::GoogleBenchmark);
        }
        if pytest_benchmark::recognises(&v) {
            return Some(ForeignTool::PytestBenchmark);
        }
        if jmh::recognises(&v) {
            return Some(ForeignTool::Jmh);
        }
        if benchmark_dotnet::recognises(&v) {
            return Some(ForeignTool::BenchmarkDotNet);
        }
        // Last: its shape (an object of objects with values) is the loosest.
        if bmf::recognises(&v) {
            return Some(ForeignTool::Bmf);
        }
        return None;
    }
    if go::recognises_events(text) {
        return go::events_text(text)
            .ok()
            .filter(|t| go::recognises(t))
            .map(|_| ForeignTool::Go);
    }
    go::recognises(text).then_some(ForeignTool::Go)
}

/// Reads another tool's export: `Ok(None)` when it is no format plumb imports, an error
/// when it is one but malformed.
pub fn import(text: &str) -> Result<Option<(ForeignTool, ResultDocument)>, String> {
    import_text(text, None)
        .map(|i| i.map(|i| (i.tool, i.doc)))
        .map_err(|e| e.to_string())
}

/// An empty document for an import: default levels, the tool named, nothing else known.
fn document(tool: ForeignTool, environment: Environment) -> ResultDocument {
    let mut doc = ResultDocument::new(
        env!("CARGO_PKG_VERSION"),
        Invocation {
            argv: Vec::new(),
            cwd: None,
        },
        environment,
        Settings {
            confidence: Confidence::DEFAULT,
            sesoi: Fraction::DEFAULT_SESOI,
            question: Default::default(),
            producer: ProducerSettings::Imported {
                tool: tool.name().to_string(),
            },
        },
    );
    // Unknown: 0 reads as "at an unknown time" (JSON has no NaN).
    doc.started = plumb_model::quantity::Timestamp::EPOCH;
    doc
}

/// A benchmark plumb could not read from the file, kept as a failure saying why, so that
/// it shows as failed rather than vanishing.
fn not_imported(b: &mut plumb_model::Benchmark, why: &str) {
    b.set_function(plumb_model::FunctionInfo {
        failure: Some(format!("not imported: {why}")),
        ..plumb_model::FunctionInfo::default()
    });
}
