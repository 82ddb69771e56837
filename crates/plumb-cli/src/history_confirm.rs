//! `plumb history confirm`: the options as plumb-changes' confirmation request, the
//! change named (or every candidate) confirmed, and the outcome's exit code.
use crate::args::HistoryConfirmArgs;
use crate::exit::{self, CliError};
use crate::session::Session;
use plumb_changes::{confirm_named, Confirmations, Confirming};
use plumb_history::HistoryStore;

/// What `plumb: …` lines confirming says on stderr.
pub fn say(line: String) {
    eprintln!("plumb: {line}");
}

/// 1 when a regression was confirmed (said), the stop's code when stopped, else 0.
pub fn exit_code(done: &Confirmations, session: &Session) -> i32 {
    if done.stopped {
        return session.exit_code();
    }
    if done.regressions > 0 {
        eprintln!("plumb: {} confirmed regression(s)", done.regressions);
        return exit::REGRESSION;
    }
    exit::OK
}

pub fn run(store: &mut dyn HistoryStore, a: &HistoryConfirmArgs) -> Result<i32, CliError> {
    let options = a.options.request(a.sesoi);
    let session = crate::session::stop_on_signals()?;
    let mut said = say;
    let mut c = Confirming::new(
        &options,
        &std::env::current_dir()?,
        &session.stop,
        &mut said,
    )?;
    let done = confirm_named(store, &mut c, a.change)?;
    Ok(exit_code(&done, &session))
}
