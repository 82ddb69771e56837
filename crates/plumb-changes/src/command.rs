//! The command that re-runs a benchmark: given, else the repository's plumb.toml's, else
//! the one the store recorded — which is data a shared store's writers chose, so run only
//! when trusted.
use crate::{ChangesError, Confirming};
use plumb_history::HistoryStore;
use plumb_history::SeriesRecord;

/// The command that measures `a`'s benchmark as of `run`; a recorded command that differs
/// from the one run is said.
pub(crate) fn command_for(
    store: &mut dyn HistoryStore,
    c: &mut Confirming,
    a: &SeriesRecord,
    run: i64,
) -> Result<String, ChangesError> {
    let benchmark = &a.series.key.benchmark;
    let doc = store.document(run)?;
    let recorded = doc
        .benchmarks
        .iter()
        .find(|b| &b.name == benchmark)
        .and_then(|b| b.command())
        .map(str::to_string);
    let chosen = if !c.options.command.is_empty() {
        Some((
            plumb_command::join_words(&c.options.command),
            "given after --",
        ))
    } else {
        c.config
            .benchmarks
            .get(benchmark)
            .map(|cmd| (cmd.clone(), "plumb.toml"))
    };
    match (chosen, recorded) {
        (Some((cmd, from)), Some(rec)) if rec != cmd => {
            (c.say)(format!(
                "{benchmark}: running {cmd:?} ({from}); the store recorded {rec:?}, not run"
            ));
            Ok(cmd)
        }
        (Some((cmd, _)), _) => Ok(cmd),
        (None, Some(rec)) if c.options.trust_stored_commands => {
            (c.say)(format!("{benchmark}: running the command the store recorded (--trust-stored-commands): {rec:?}"));
            Ok(rec)
        }
        (None, Some(recorded)) => Err(ChangesError::StoredCommandOnly {
            benchmark: benchmark.clone(),
            recorded,
        }),
        (None, None) => Err(ChangesError::NoCommand {
            benchmark: benchmark.clone(),
        }),
    }
}
