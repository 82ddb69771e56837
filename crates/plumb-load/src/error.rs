//! What can stop a load test, a join of its runs or a merge of agents' results: each
//! variant says the cause, and where there is one, what to do.
use crate::http::tls::TlsError;
use crate::http::{RequestError, TargetError};
use std::fmt;
use std::path::PathBuf;

#[derive(Debug)]
pub enum LoadError {
    /// The URL does not parse, or its host does not resolve.
    Target(TargetError),
    /// The request asked for is not valid HTTP (a method, a header).
    Request(RequestError),
    /// No address of the target accepted a connection; `last`: the last refusal.
    Unreachable { url: String, last: String },
    /// TLS refused before any load: a certificate (expired, for another name, of an
    /// unknown issuer), a handshake that failed or stalled, or a PEM file.
    Tls(TlsError),
    /// `--start-at` had passed when the test was ready to start.
    StartInPast,
    /// The operating system refused what the generator needs (a poll, a timer, a thread,
    /// the first connection's settings).
    System { what: &'static str, cause: String },
    /// A generator thread panicked: a bug in plumb.
    GeneratorPanicked,
    /// A histogram (a second's, a result's) that does not decode or combine.
    Histogram { what: &'static str, cause: String },
    /// A file that could not be written.
    Write { path: PathBuf, cause: String },
    /// Results that do not make one test.
    Combine(CombineError),
    /// `error`, in the merge of the benchmark named `benchmark`.
    In {
        benchmark: String,
        error: Box<LoadError>,
    },
}

/// Why runs or agents' results cannot be combined into one.
#[derive(Debug)]
pub enum CombineError {
    Nothing,
    /// Runs of a repeated test of different loops (open and closed).
    RunModes {
        first: String,
        other: String,
    },
    /// Agents' results of different loops.
    MergeModes {
        first: String,
        other: String,
    },
    /// An input that is itself a repeated test, not one agent's.
    Repeated {
        input: String,
    },
    /// The same result given twice.
    Duplicate {
        a: String,
        b: String,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Target(e) => write!(f, "{e}"),
            LoadError::Request(e) => write!(f, "{e}"),
            LoadError::Unreachable { url, last } => write!(f, "cannot reach {url}: {last}"),
            LoadError::Tls(e) => write!(f, "{e}"),
            LoadError::StartInPast => {
                f.write_str("--start-at is in the past (give a time ahead of every agent's start)")
            }
            LoadError::System { what, cause } => write!(f, "{what}: {cause}"),
            LoadError::GeneratorPanicked => {
                f.write_str("a generator thread panicked (a bug in plumb: please report it)")
            }
            LoadError::Histogram { what, cause } => write!(f, "{what}: {cause}"),
            LoadError::Write { path, cause } => {
                write!(f, "cannot write {}: {cause}", path.display())
            }
            LoadError::Combine(e) => write!(f, "{e}"),
            LoadError::In { benchmark, error } => write!(f, "{benchmark}: {error}"),
        }
    }
}

impl fmt::Display for CombineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CombineError::Nothing => f.write_str("nothing to merge"),
            CombineError::RunModes { first, other } => write!(
                f,
                "runs of {first} loop and {other} loop do not make one test"
            ),
            CombineError::MergeModes { first, other } => {
                write!(f, "cannot merge {first} loop with {other} loop results")
            }
            CombineError::Repeated { input } => write!(
                f,
                "{input} is a repeated test (--repeat): its runs were one after the other, not agents of one test"
            ),
            CombineError::Duplicate { a, b } => write!(
                f,
                "{a} and {b} are the same result (same window, same histogram): merging it twice would double its counts"
            ),
        }
    }
}

impl std::error::Error for LoadError {}

impl From<TargetError> for LoadError {
    fn from(e: TargetError) -> LoadError {
        LoadError::Target(e)
    }
}

impl From<RequestError> for LoadError {
    fn from(e: RequestError) -> LoadError {
        LoadError::Request(e)
    }
}

impl From<TlsError> for LoadError {
    fn from(e: TlsError) -> LoadError {
        LoadError::Tls(e)
    }
}

impl From<CombineError> for LoadError {
    fn from(e: CombineError) -> LoadError {
        LoadError::Combine(e)
    }
}

/// A histogram that does not decode or combine (the model's or hdrhistogram's error, as
/// its text: hdrhistogram's errors are not `Clone`).
pub(crate) fn histogram<E: fmt::Display>(what: &'static str) -> impl Fn(E) -> LoadError {
    move |cause| LoadError::Histogram {
        what,
        cause: cause.to_string(),
    }
}
