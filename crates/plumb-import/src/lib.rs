//! Other tools' results, read into the result model so `compare` and `show` take them
//! like plumb's own. Detected by content, not by file name (or named by `--format`). What a foreign file does not
//! record (the machine, the run order, plumb's checks) is left unknown, never invented.

mod asv;
mod benchmark_dotnet;
mod bmf;
mod catch2;
mod criterion;
mod error;
mod go;
mod google_benchmark;
mod gungraun;
mod hyperfine;
mod jmh;
mod pytest_benchmark;
mod result_file;

pub use error::ImportError;
pub use result_file::{parse_result, read_file, read_result, ReadResult, UnreadableResult};
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
    Asv,
    Catch2,
    Gungraun,
    Bmf,
}

impl ForeignTool {
    /// Every tool plumb imports, in the order content is tried.
    pub const ALL: [ForeignTool; 11] = [
        ForeignTool::Hyperfine,
        ForeignTool::GoogleBenchmark,
        ForeignTool::Criterion,
        ForeignTool::Go,
        ForeignTool::PytestBenchmark,
        ForeignTool::Jmh,
        ForeignTool::BenchmarkDotNet,
        ForeignTool::Asv,
        ForeignTool::Catch2,
        ForeignTool::Gungraun,
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
            ForeignTool::Asv => "asv",
            ForeignTool::Catch2 => "Catch2",
            ForeignTool::Gungraun => "gungraun",
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
            ForeignTool::Asv => "asv",
            ForeignTool::Catch2 => "catch2",
            ForeignTool::Gungraun => "gungraun",
            ForeignTool::Bmf => "bmf",
        }
    }

    /// The tool `--format NAME` names.
    /// The tool `--format NAME` names, or an error listing the names.
    pub fn named(name: &str) -> Result<ForeignTool, ImportError> {
        ForeignTool::by_key(name).ok_or_else(|| {
            let names: Vec<&str> = ForeignTool::ALL.iter().map(|t| t.key()).collect();
            ImportError::at(
                "",
                format!(
                    "unknown format {name:?}; plumb imports {}",
                    names.join(", ")
                ),
            )
        })
    }

    pub fn by_key(key: &str) -> Option<ForeignTool> {
        ForeignTool::ALL.into_iter().find(|t| t.key() == key)
    }

    /// What its exports carry of each benchmark, said when one is read.
    pub fn carries(self) -> &'static str {
        match self {
            ForeignTool::Hyperfine => {
                "each command's runs (hyperfine 2.0: with each run's other metrics)"
            }
            ForeignTool::GoogleBenchmark => {
                "each benchmark's repetitions, each over its iterations"
            }
            ForeignTool::Criterion => {
                "each benchmark's samples, each over its iterations, and its throughput (an amount per iteration) as a parameter"
            }
            ForeignTool::Go => {
                "each benchmark's result lines (one a -count), each over its iterations"
            }
            ForeignTool::PytestBenchmark => {
                "each benchmark's rounds, each over its iterations (its ops, 1 / the mean, is recomputed, not read)"
            }
            ForeignTool::Jmh => "each benchmark's measured iterations (each sampled call in sample mode), its forks as launches",
            ForeignTool::BenchmarkDotNet => {
                "each benchmark's result-phase iterations, each over its operations, by launch"
            }
            ForeignTool::Asv => {
                "each parameter combination's samples (with --record-samples), else its median with asv's 99 % interval (a summary)"
            }
            ForeignTool::Catch2 => {
                "each benchmark's mean with its interval, standard deviation and sample count (a summary: Catch2 writes no samples)"
            }
            ForeignTool::Gungraun => {
                "each benchmark's callgrind counts of one simulated call (instructions, data accesses, cache misses, branches): exact, compared by their ratio, never as a time"
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

/// Reads another tool's results from `path`: a file, a directory (criterion's,
/// gungraun's), or criterion's directory at a named baseline (`DIR@NAME`). The format is
/// found from the content, or is `forced`. `Ok(None)`: no format plumb imports.
pub fn import_path(
    path: &Path,
    forced: Option<ForeignTool>,
) -> Result<Option<Imported>, ImportError> {
    if path.is_dir() {
        return read_directory(path, forced).map(Some);
    }
    if let Some((dir, baseline)) = criterion::at_baseline(path) {
        if forced.is_some_and(|t| t != ForeignTool::Criterion) {
            let why = "DIR@NAME names a criterion baseline; --format names another tool";
            return Err(ImportError::at("", why));
        }
        let (doc, notes) = criterion::read(&dir, &baseline)?;
        let tool = ForeignTool::Criterion;
        return Ok(Some(Imported { tool, doc, notes }));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| ImportError::at(path.display().to_string(), e.to_string()))?;
    read_text(&text, forced, Some(path))
}

/// Walks the tree under `dir` (criterion's and gungraun's output), calling `visit` with
/// each entry and whether it is a directory, entering a directory when `visit` says so.
/// Links are not followed (a loop would never end); a directory that cannot be read is
/// passed over.
fn walk(dir: &Path, mut visit: impl FnMut(&Path, bool) -> bool) {
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if visit(&path, is_dir) && is_dir {
                pending.push(path);
            }
        }
    }
}

/// A directory: criterion's output or gungraun's. One holding both (a `target/`) is
/// refused rather than read as either: the user names one.
fn read_directory(path: &Path, forced: Option<ForeignTool>) -> Result<Imported, ImportError> {
    let summaries = gungraun::summaries_under(path);
    let tool = match (forced, &summaries) {
        (Some(t @ (ForeignTool::Gungraun | ForeignTool::Criterion)), _) => t,
        (Some(t), _) => {
            let why = format!("a directory; {} results are a file", t.name());
            return Err(ImportError::at("", why));
        }
        (None, Some(_)) if criterion::holds_output(path) => {
            return Err(ImportError::at(
                "",
                "holds both criterion's output and gungraun's: give its criterion or gungraun directory, or --format",
            ))
        }
        (None, Some(_)) => ForeignTool::Gungraun,
        (None, None) => ForeignTool::Criterion,
    };
    let (doc, notes) = match (tool, summaries) {
        (ForeignTool::Gungraun, Some(files)) => gungraun::read_files(&files)?,
        (ForeignTool::Gungraun, None) => {
            let why = "no gungraun summary.json under it (cargo bench -- --save-summary=json writes them)";
            return Err(ImportError::at("", why));
        }
        _ => criterion::read(path, criterion::LAST_RUN)?,
    };
    Ok(Imported { tool, doc, notes })
}

/// `import_path` for text already read.
pub fn import_text(
    text: &str,
    forced: Option<ForeignTool>,
) -> Result<Option<Imported>, ImportError> {
    read_text(text, forced, None)
}

/// `import_text` for text read from `path` (asv finds its units beside its file).
pub fn read_text(
    text: &str,
    forced: Option<ForeignTool>,
    path: Option<&Path>,
) -> Result<Option<Imported>, ImportError> {
    // Parsed once: for finding the format and for reading it. Python's json (asv,
    // pytest-benchmark, scripts writing BMF) writes a figure that is not a number as a
    // bare NaN or Infinity, which JSON has not: read as the strings "NaN", "Infinity", so
    // the format is still found, asv reads its NaN as "no result", and the others say
    // which benchmark's figure is not a number and read the rest.
    let json = serde_json::from_str::<Value>(text)
        .or_else(|e| serde_json::from_str(&asv::literals_as_strings(text)).map_err(|_| e));
    // gungraun's JSON lines: not one JSON value; read once, to detect and to import.
    let lines = json.is_err().then(|| gungraun::lines(text)).flatten();
    let Some(tool) = forced.or_else(|| detect(json.as_ref().ok(), text, lines.is_some())) else {
        return Ok(None);
    };
    let (doc, notes) = match tool {
        ForeignTool::Criterion => {
            return Err(ImportError::at(
                "",
                "criterion's results are a directory (target/criterion)",
            ))
        }
        ForeignTool::Go => go::read_output(text)?,
        ForeignTool::Catch2 => catch2::read(text)?,
        ForeignTool::Gungraun if json.is_err() => {
            let (placed, mut bad) = lines.ok_or_else(|| {
                ImportError::at("", "neither a gungraun summary nor its JSON lines")
            })?;
            let (doc, mut notes) = gungraun::read_all(placed);
            notes.append(&mut bad);
            (doc, notes)
        }
        ForeignTool::Asv => {
            let v = json.map_err(|e| ImportError::at("", format!("not JSON ({e})")))?;
            asv::read(&v, asv_benchmarks(path).as_ref())?
        }
        json_tool => {
            let v = json.map_err(|e| ImportError::at("", format!("not JSON ({e})")))?;
            read_json(json_tool, &v)?
        }
    };
    Ok(Some(Imported { tool, doc, notes }))
}

/// asv's `benchmarks.json` (units, parameter names), in the results directory above a
/// result file's machine directory, when it is there and readable.
fn asv_benchmarks(result: Option<&Path>) -> Option<Value> {
    let file = result?.parent()?.parent()?.join("benchmarks.json");
    let text = std::fs::read_to_string(file).ok()?;
    serde_json::from_str(&text).ok()
}

/// A JSON export of `tool`'s, with the notes of what was not taken.
fn read_json(tool: ForeignTool, v: &Value) -> Result<(ResultDocument, Vec<String>), ImportError> {
    match tool {
        ForeignTool::Hyperfine => hyperfine::read(v),
        ForeignTool::GoogleBenchmark => google_benchmark::read(v),
        ForeignTool::PytestBenchmark => pytest_benchmark::read(v),
        ForeignTool::Gungraun => gungraun::read(v),
        ForeignTool::Jmh => jmh::read(v),
        ForeignTool::BenchmarkDotNet => benchmark_dotnet::read(v),
        ForeignTool::Bmf => bmf::read(v),
        ForeignTool::Criterion | ForeignTool::Go | ForeignTool::Catch2 | ForeignTool::Asv => {
            unreachable!("{} is read on its own path", tool.name())
        }
    }
}

/// Whether a JSON value has a format's shape.
type Recognises = fn(&Value) -> bool;

/// The format an input is in, by its content (`json`: the input parsed, when it is JSON).
/// `gungraun_lines`: the text is gungraun's JSON lines.
fn detect(json: Option<&Value>, text: &str, gungraun_lines: bool) -> Option<ForeignTool> {
    if let Some(v) = json {
        let by_shape: [(ForeignTool, Recognises); 8] = [
            (ForeignTool::Hyperfine, hyperfine::recognises),
            (ForeignTool::GoogleBenchmark, google_benchmark::recognises),
            (ForeignTool::PytestBenchmark, pytest_benchmark::recognises),
            (ForeignTool::Jmh, jmh::recognises),
            (ForeignTool::BenchmarkDotNet, benchmark_dotnet::recognises),
            (ForeignTool::Asv, asv::recognises),
            (ForeignTool::Gungraun, gungraun::recognises),
            // Last: its shape (an object of objects with values) is the loosest.
            (ForeignTool::Bmf, bmf::recognises),
        ];
        return by_shape.into_iter().find(|(_, r)| r(v)).map(|(t, _)| t);
    }
    if catch2::recognises(text) {
        return Some(ForeignTool::Catch2);
    }
    if gungraun_lines {
        return Some(ForeignTool::Gungraun);
    }
    go::recognises_output(text).then_some(ForeignTool::Go)
}

/// What an importer builds: the document, and a note for each part of the input it did
/// not take.
struct Reading {
    doc: ResultDocument,
    notes: Vec<String>,
}

impl Reading {
    fn new(tool: ForeignTool, environment: Environment) -> Reading {
        Reading {
            doc: document(tool, environment),
            notes: Vec::new(),
        }
    }

    /// Keeps `b`, found at `place`, whose samples were read as `filled` says: one whose
    /// samples could not be read is kept as not imported, saying why (so it shows as
    /// failed rather than vanishing); a second benchmark of one name is left out.
    fn keep(
        &mut self,
        place: &str,
        mut b: plumb_model::Benchmark,
        filled: Result<(), ImportError>,
    ) {
        if self.doc.benchmarks.iter().any(|d| d.name == b.name) {
            let note = format!("{place}: a second benchmark named {:?}; left out", b.name);
            self.notes.push(note);
            return;
        }
        if let Err(why) = filled {
            self.notes.push(format!("{place} ({}): {why}", b.name));
            not_imported(&mut b, &why.to_string());
        }
        self.doc.benchmarks.push(b);
    }

    fn done(self) -> (ResultDocument, Vec<String>) {
        (self.doc, self.notes)
    }
}

/// Where a harness's summary keeps each figure: the keys of its statistics object, named
/// as `place` in what is said of a bad one, and the nanoseconds in one of its units.
struct SummaryKeys {
    place: &'static str,
    scale: f64,
    /// Count, mean, median, standard deviation, minimum, maximum.
    keys: [&'static str; 6],
}

impl SummaryKeys {
    /// The summary `stats` holds, in nanoseconds per operation; it must have a mean.
    fn read(&self, stats: &Value) -> Result<plumb_model::ReportedSummary, ImportError> {
        let [n, mean, median, std_dev, min, max] = self.keys;
        let ns = |key: &str| -> Result<Option<f64>, ImportError> {
            match &stats[key] {
                Value::Null => Ok(None),
                v => match v.as_f64() {
                    Some(t) if t.is_finite() && t >= 0.0 => time_ns(t * self.scale).map(Some),
                    _ => Err(ImportError::from(format!(
                        "{}.{key} is {v}, not a time",
                        self.place
                    ))),
                },
            }
        };
        Ok(plumb_model::ReportedSummary {
            n: stats[n].as_u64(),
            mean: Some(ns(mean)?.ok_or(ImportError::from(format!("no {}.{mean}", self.place)))?),
            median: ns(median)?,
            std_dev: ns(std_dev)?,
            min: ns(min)?,
            max: ns(max)?,
            ..plumb_model::ReportedSummary::default()
        })
    }
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

/// `ns` if it is a time a sample can hold, else why not: every importer's one check. A
/// u64 of nanoseconds ends at 2^64 (584 years); a value beyond it (a file's 1e308) is no
/// time a benchmark took, and clamping it would print 18450000000 s.
pub(crate) fn time_ns(ns: f64) -> Result<f64, ImportError> {
    if ns.is_finite() && ns >= 0.0 && ns < u64::MAX as f64 {
        return Ok(ns);
    }
    let shown = match ns {
        ns if ns.is_nan() => "NaN".to_string(),
        ns if ns.is_infinite() => format!("{ns}"),
        ns => plumb_model::format::time_ns(ns),
    };
    Err(ImportError::from(format!(
        "{shown} is not a time a benchmark took"
    )))
}

/// `ns` (checked by `time_ns`) as the whole nanoseconds a sample holds.
pub(crate) fn whole_ns(ns: f64) -> Result<u64, ImportError> {
    time_ns(ns).map(|ns| ns.round() as u64)
}

/// A benchmark plumb could not read from the file, kept as a failure saying why, so that
/// it shows as failed rather than vanishing.
fn not_imported(b: &mut plumb_model::Benchmark, why: &str) {
    b.set_function(plumb_model::FunctionInfo {
        failure: Some(format!("not imported: {why}")),
        ..plumb_model::FunctionInfo::default()
    });
}
