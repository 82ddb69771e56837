//! Exit codes and error reporting, in one place (like `diff`: 0 fine, 1 a difference that
//! matters, 2 trouble).

/// Success; for `compare`, nothing slower than the SESOI.
pub const OK: i32 = 0;
/// `compare` found a benchmark slower by more than the SESOI.
pub const REGRESSION: i32 = 1;
/// Bad input, a failing benchmark, an unwritable file.
pub const ERROR: i32 = 2;

#[derive(Debug)]
pub struct CliError(pub String);

impl<E: std::fmt::Display> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError(e.to_string())
    }
}

pub fn report(result: Result<i32, CliError>) -> i32 {
    match result {
        Ok(code) => code,
        Err(CliError(message)) => {
            eprintln!("plumb: error: {message}");
            ERROR
        }
    }
}

pub use plumb_report::targets::print_stdout;
