//! `plumb history confirm`: the options as plumb-changes' confirmation request, the
//! change named (or every candidate) confirmed, and the outcome's exit code.
use crate::args::HistoryConfirmArgs;
use crate::exit::{CliError, Outcome};
use crate::session::Session;
use plumb_changes::{confirm_named, Confirmations, Confirming};
use plumb_history::HistoryStore;

/// A confirmed regression (said), the stop when stopped, else done.
fn outcome(done: &Confirmations, session: &Session) -> Outcome {
    if done.stopped {
        return session.stopped();
    }
    if done.regressions > 0 {
        eprintln!("plumb: {} confirmed regression(s)", done.regressions);
        return Outcome::GateFailed;
    }
    Outcome::Done
}

/// Confirms as `confirm` asks, in the repository plumb stands in, stopped by a signal:
/// the outcome, and each change's line.
pub fn confirming(
    options: &plumb_changes::ConfirmOptions,
    confirm: impl FnOnce(&mut Confirming) -> Result<Confirmations, plumb_changes::ChangesError>,
) -> Result<(Outcome, Vec<String>), CliError> {
    let session = crate::session::stop_on_signals()?;
    let mut said = crate::exit::say;
    let here = std::env::current_dir()?;
    let mut c = Confirming::new(options, &here, &session.stop, &mut said)?;
    let done = confirm(&mut c)?;
    Ok((outcome(&done, &session), done.said))
}

pub fn run(store: &mut dyn HistoryStore, a: &HistoryConfirmArgs) -> Result<Outcome, CliError> {
    let (outcome, _said_on_stderr) = confirming(&a.options, |c| confirm_named(store, c, a.change))?;
    Ok(outcome)
}
