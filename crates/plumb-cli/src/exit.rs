//! Exit codes and error reporting, in one place (like `diff`: 0 fine, 1 a difference that
//! matters, 2 trouble).
use std::error::Error;

/// Success; for `compare`, nothing slower than the SESOI.
const OK: i32 = 0;
/// `compare` found a benchmark slower by more than the SESOI.
const REGRESSION: i32 = 1;
/// Bad input, a failing benchmark, an unwritable file.
const ERROR: i32 = 2;

/// How a subcommand ended, when it ran to an end it can report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Done: nothing slower, every gate passed.
    Done,
    /// A gate failed: slower beyond the SESOI, a confirmed regression, errors above the
    /// limit, a generator behind its schedule.
    GateFailed,
    /// The run failed or is incomplete (its result is written, marked so).
    Failed,
    /// Stopped by this signal (128 + its number, as a shell reports it).
    Stopped(i32),
}

impl Outcome {
    /// The process's exit code.
    pub fn code(self) -> i32 {
        match self {
            Outcome::Done => OK,
            Outcome::GateFailed => REGRESSION,
            Outcome::Failed => ERROR,
            Outcome::Stopped(signal) => 128 + signal,
        }
    }
}

/// Why a subcommand could not finish: the library's typed error it came from (a
/// `ChangesError`, a `HistoryError`, an `io::Error`…), or the CLI's own words about its
/// arguments. The cause is kept, not flattened to its text, so that the message and the
/// exit code are read from it in one place (`report`).
#[derive(Debug)]
pub struct CliError(Box<dyn Error + Send + Sync>);

impl<E: Into<Box<dyn Error + Send + Sync>>> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError(e.into())
    }
}

impl CliError {
    /// The CLI's own words (an option that contradicts another, a missing file…).
    pub fn msg(words: String) -> Self {
        CliError(words.into())
    }

    /// What went wrong, as said to the user.
    pub fn message(&self) -> String {
        self.0.to_string()
    }

    /// The exit code: every error is trouble (2), as the exit codes documented in
    /// `--help` say; a regression or a stop is an outcome, not an error.
    pub fn exit_code(&self) -> i32 {
        ERROR
    }
}

/// The exit code of a subcommand's outcome, its error said on stderr.
pub fn report(result: Result<Outcome, CliError>) -> i32 {
    match result {
        Ok(outcome) => outcome.code(),
        Err(e) => {
            eprintln!("plumb: error: {}", e.message());
            e.exit_code()
        }
    }
}

pub use plumb_report::targets::print_stdout;

/// A notice from a library (a build, a confirmation, an agent), as `plumb: …` on stderr.
pub fn say(line: String) {
    eprintln!("plumb: {line}");
}
