//! Why the history store could not do what was asked: each says what and what to do.
use std::fmt;

#[derive(Debug)]
pub enum HistoryError {
    /// The store was written by a newer plumb: its schema is refused, never rewritten.
    NewerSchema { found: u32, known: u32 },
    /// The database itself failed (a corrupt file, a full or read-only disk, a lock).
    Database { what: &'static str, cause: String },
    /// A result document could not be kept (it does not serialise).
    Document(String),
    /// Another process kept the store locked for longer than plumb waits.
    Locked {
        waited: std::time::Duration,
        /// Who holds it, where that can be found (a process and its command line).
        holders: Vec<String>,
    },
    /// A commit named for a result that git does not know here.
    NoSuchCommit(String),
    /// A `--manifest` that cannot be read or has a line that is not `COMMIT FILE` (0:
    /// the file as a whole).
    BadManifest {
        path: std::path::PathBuf,
        line: usize,
        why: String,
    },
    /// No change point was recorded where one was named.
    NoSuchChange { series: i64, run: i64 },
    /// A change not written SERIES@RUN.
    NotAChange(String),
    /// No series is named so (by id, name, or benchmark).
    NoSuchSeries(String),
    /// A store to read named by a path where there is no file.
    NoSuchStore(std::path::PathBuf),
    /// `--history ""`.
    EmptyPath,
    /// No store named, and none at the default place (its path).
    NoHistory(std::path::PathBuf),
    /// A name more than one series answers to: the candidates, `id (name)`.
    AmbiguousSeries {
        wanted: String,
        candidates: Vec<String>,
    },
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryError::NewerSchema { found, known } => write!(
                f,
                "the history store has schema version {found}, newer than this plumb's {known}: use a newer plumb to read it"
            ),
            HistoryError::Database { what, cause } => write!(f, "history store: {what}: {cause}"),
            HistoryError::Document(why) => write!(f, "history store: cannot keep the result: {why}"),
            HistoryError::Locked { waited, holders } => {
                let waited = plumb_model::format::time(*waited);
                write!(f, "history store: still locked after waiting {waited}")?;
                if holders.is_empty() {
                    write!(f, " (by another process)")
                } else {
                    write!(f, " by {}", holders.join(", "))
                }
            }
            HistoryError::NoSuchCommit(name) => {
                write!(f, "--commit {name}: git knows no such commit here")
            }
            HistoryError::BadManifest { path, line: 0, why } => {
                write!(f, "--manifest {}: {why}", path.display())
            }
            HistoryError::BadManifest { path, line, why } => {
                write!(f, "--manifest {} line {line}: {why}", path.display())
            }
            HistoryError::NoSuchChange { series, run } => write!(
                f,
                "no change point recorded in series {series} at run {run}: plumb history changes lists them"
            ),
            HistoryError::NotAChange(text) => write!(
                f,
                "{text}: a change is SERIES@RUN, as plumb history changes names it (e.g. 3@41)"
            ),
            HistoryError::NoSuchSeries(wanted) => {
                write!(f, "no series {wanted:?}: plumb history list shows them")
            }
            HistoryError::NoSuchStore(path) => {
                write!(f, "--history {}: no such store", path.display())
            }
            HistoryError::EmptyPath => f.write_str("--history: an empty path"),
            HistoryError::NoHistory(path) => {
                write!(f, "no history at {}: plumb history add keeps one", path.display())
            }
            HistoryError::AmbiguousSeries { wanted, candidates } => write!(
                f,
                "{wanted:?} names more than one series ({}): give its id",
                candidates.join(", ")
            ),
        }
    }
}

impl std::error::Error for HistoryError {}

/// An error of the database while doing `what`; a lock not had in time is `Locked`, its
/// wait and holders filled in by the store, which knows them.
pub(crate) fn db(what: &'static str) -> impl Fn(rusqlite::Error) -> HistoryError {
    move |e| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
            HistoryError::Locked {
                waited: std::time::Duration::ZERO,
                holders: Vec::new(),
            }
        }
        _ => HistoryError::Database {
            what,
            cause: e.to_string(),
        },
    }
}
