//! `--save` / `--history PATH`: the harness keeps its result in the history store, as
//! `plumb run --save` does — the store opened before anything is measured (one that cannot
//! be written stops the run first), the result kept after its files are written, at the
//! working directory's commit; a stopped run is not kept.
use crate::args::Args;
use crate::error::BenchError;
use plumb_history::{HistoryStore, Location};
use plumb_model::{ResultDocument, RunStatus};

pub(crate) struct Saver(Option<(Location, Box<dyn HistoryStore>)>);

/// The store `args` ask for, open and writable; nothing when they ask for none.
pub(crate) fn open(args: &Args, test_mode: bool) -> Result<Saver, BenchError> {
    if test_mode || args.launch_child || (!args.save && args.history.is_none()) {
        return Ok(Saver(None));
    }
    let here = std::env::current_dir().map_err(|e| BenchError::System {
        what: "cannot read the working directory".into(),
        cause: e.to_string(),
    })?;
    let named = args.history.clone().or_else(|| {
        std::env::var("PLUMB_HISTORY")
            .ok()
            .filter(|v| !v.is_empty())
    });
    let location = match named {
        Some(text) => Location::parse(&text),
        None => Location::Sqlite(plumb_history::git::default_store(&here)),
    };
    let failed =
        |e: plumb_history::HistoryError| BenchError::History(format!("{}: {e}", location.shown()));
    let store = location.open().map_err(failed)?;
    store.writable().map_err(failed)?;
    Ok(Saver(Some((location, store))))
}

impl Saver {
    pub(crate) fn keep(self, doc: &ResultDocument) -> Result<(), BenchError> {
        let Some((location, mut store)) = self.0 else {
            return Ok(());
        };
        if doc.status != RunStatus::Complete {
            eprintln!("plumb-bench: not kept in the history: the run did not finish");
            return Ok(());
        }
        let here = std::env::current_dir().map_err(|e| BenchError::System {
            what: "cannot read the working directory".into(),
            cause: e.to_string(),
        })?;
        let failed = |e: plumb_history::HistoryError| {
            BenchError::History(format!(
                "{}: {e} (the result files are written)",
                location.shown()
            ))
        };
        let commit = plumb_history::git::commit(&here, None).map_err(failed)?;
        let run = store.add(doc, commit.as_ref()).map_err(failed)?.run;
        let at = commit
            .map(|c| format!(" at {}", c.sha.chars().take(10).collect::<String>()))
            .unwrap_or_default();
        eprintln!("kept as run {run}{at} in {}", location.shown());
        Ok(())
    }
}
