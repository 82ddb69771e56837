//! `plumb history confirm`: the options as plumb-changes' confirmation request, the
//! change named (or every candidate) confirmed, and the outcome's exit code.
use crate::args::HistoryConfirmArgs;
use crate::exit::{CliError, Outcome};
use crate::session::Session;
use plumb_changes::{confirm_named, Confirmations, Confirming};
use plumb_history::HistoryStore;

/// What `plumb: …` lines confirming says on stderr.
pub fn say(line: String) {
    eprintln!("plumb: {line}");
}

/// A confirmed regression (said), the stop when stopped, else done.
pub fn outcome(done: &Confirmations, session: &Session) -> Outcome {
    if done.stopped {
        return session.stopped();
    }
    if done.regressions > 0 {
        eprintln!("plumb: {} confirmed regression(s)", done.regressions);
        return Outcome::GateFailed;
    }
    Outcome::Done
}

pub fn run(store: &mut dyn HistoryStore, a: &HistoryConfirmArgs) -> Result<Outcome, CliError> {
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
    Ok(outcome(&done, &session))
}
