//! What stops the harness before or after it measures: bad arguments (and `--help`),
//! benchmark names and filters, the clock, pinning, the machine's refusals, outputs that
//! cannot be written, and benchmarks that failed. Each variant says the cause and, where
//! there is one, what to do.
use plumb_report::targets::ExportError;
use std::fmt;
use std::path::PathBuf;

/// An argument the harness cannot use, or `--help`.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgsError {
    /// `--help`: not an error, the usage is printed and the harness exits 0.
    Help,
    MissingValue {
        flag: String,
    },
    /// A value that does not parse or is out of range; `why` says which and gives an
    /// example.
    BadValue {
        flag: String,
        why: String,
    },
    UnknownOption(String),
    /// Two options that cannot go together.
    Conflict(&'static str),
}

#[derive(Debug)]
pub enum BenchError {
    Args(ArgsError),
    /// Two benchmarks with one name.
    DuplicateName(String),
    BadFilter {
        filter: String,
        why: String,
    },
    /// Filters that select nothing, with every name they could have.
    NoMatch {
        filters: Vec<String>,
        names: Vec<String>,
    },
    /// `--clock tsc` where the CPU offers no invariant TSC (or is not x86-64).
    NoTsc,
    Pin {
        cpu: usize,
        why: String,
    },
    /// The machine refused something the harness needs (a signal handler, a temporary
    /// directory, its own executable, a child process).
    System {
        what: String,
        cause: String,
    },
    /// A routine panicked where there is no result to keep it in (an untimed child run).
    Panicked {
        benchmark: String,
        message: String,
    },
    /// `--counters` cannot be honoured here: the plan's reason.
    Counters(plumb_report::CountersRefused),
    Write {
        path: PathBuf,
        cause: String,
    },
    Export(ExportError),
    /// The history store could not be opened or written (the result files are written).
    History(String),
    /// Benchmarks that failed in test mode (`cargo test`), where no result is kept.
    Failed(usize),
}

impl fmt::Display for ArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgsError::Help => f.write_str("--help"),
            ArgsError::MissingValue { flag } => write!(f, "{flag} needs a value"),
            ArgsError::BadValue { flag, why } => write!(f, "{flag}: {why}"),
            ArgsError::UnknownOption(o) => write!(f, "unknown option {o:?}"),
            ArgsError::Conflict(why) => f.write_str(why),
        }
    }
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Args(e) => write!(f, "{e}"),
            BenchError::DuplicateName(n) => {
                write!(f, "two benchmarks are named {n:?}; names must be unique")
            }
            BenchError::BadFilter { filter, why } => {
                write!(f, "bad --regex filter {filter:?}: {why}")
            }
            BenchError::NoMatch { filters, names } => {
                let filters: Vec<String> = filters.iter().map(|x| format!("{x:?}")).collect();
                write!(
                    f,
                    "no benchmark matches {} (matching is exact; use --regex for patterns). The benchmarks are:\n  {}",
                    filters.join(", "),
                    names.join("\n  ")
                )
            }
            BenchError::NoTsc => f.write_str(if cfg!(target_arch = "x86_64") {
                "--clock tsc: this CPU does not report an invariant TSC; use the monotonic clock"
            } else {
                "--clock tsc is only available on x86_64"
            }),
            BenchError::Pin { cpu, why } => write!(f, "--pin {cpu}: {why}"),
            BenchError::System { what, cause } => write!(f, "{what}: {cause}"),
            BenchError::Panicked { benchmark, message } => {
                write!(f, "{benchmark}: panicked: {message}")
            }
            BenchError::Counters(why) => why.fmt(f),
            BenchError::Write { path, cause } => {
                write!(f, "cannot write {}: {cause}", path.display())
            }
            BenchError::Export(e) => write!(f, "{e}"),
            BenchError::History(why) => f.write_str(why),
            BenchError::Failed(n) => write!(f, "{n} benchmark(s) failed"),
        }
    }
}

impl std::error::Error for BenchError {}

impl From<ArgsError> for BenchError {
    fn from(e: ArgsError) -> BenchError {
        BenchError::Args(e)
    }
}

impl From<ExportError> for BenchError {
    fn from(e: ExportError) -> BenchError {
        BenchError::Export(e)
    }
}

/// A refusal of the operating system, named by what was being done.
pub(crate) fn system(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> BenchError {
    let what = what.into();
    move |e| BenchError::System {
        what,
        cause: e.to_string(),
    }
}
