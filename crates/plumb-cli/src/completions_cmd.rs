//! Shell completions and the man page, generated from the same definition as the
//! arguments, so they never drift from them.

use crate::args::{Cli, CompletionsArgs};
use crate::exit::{self, CliError, Outcome};
use clap::CommandFactory;

pub fn completions(a: CompletionsArgs) -> Result<Outcome, CliError> {
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut Cli::command(), "plumb", &mut out);
    exit::print_stdout(&String::from_utf8_lossy(&out))?;
    Ok(Outcome::Done)
}

/// The man page (roff) of `plumb`: `plumb man > plumb.1`.
pub fn man() -> Result<Outcome, CliError> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut out)
        .map_err(|e| CliError::msg(format!("cannot render the man page: {e}")))?;
    exit::print_stdout(&String::from_utf8_lossy(&out))?;
    Ok(Outcome::Done)
}
