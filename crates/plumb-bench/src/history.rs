//! `--save` / `--history PATH`: the harness keeps its result in the history store, as
//! `plumb run --save` does (plumb-history's `Keeper`): the store opened before anything is
//! measured (one that cannot be written stops the run first), the result kept after its
//! files are written, at the working directory's commit; a stopped run is not kept.
//! Without the `history` feature the options are refused as they are parsed, and the
//! saver keeps nothing.
use crate::args::Args;
use crate::error::BenchError;
#[cfg(feature = "history")]
use plumb_history::Location;
use plumb_model::ResultDocument;
use std::path::Path;
#[cfg(feature = "history")]
use std::path::PathBuf;

#[cfg(not(feature = "history"))]
pub(crate) struct Saver;

#[cfg(not(feature = "history"))]
pub(crate) fn open(_: &Args, _: bool) -> Result<Saver, BenchError> {
    Ok(Saver)
}

#[cfg(not(feature = "history"))]
impl Saver {
    pub(crate) fn keep(self, _: &ResultDocument, _: Option<&Path>) -> Result<(), BenchError> {
        Ok(())
    }
}

#[cfg(feature = "history")]
pub(crate) struct Saver(plumb_history::Saver);

#[cfg(feature = "history")]
fn here() -> Result<PathBuf, BenchError> {
    std::env::current_dir().map_err(|e| BenchError::System {
        what: "cannot read the working directory".into(),
        cause: e.to_string(),
    })
}

/// The store `args` ask for, open and writable; nothing when they ask for none.
#[cfg(feature = "history")]
pub(crate) fn open(args: &Args, test_mode: bool) -> Result<Saver, BenchError> {
    let wanted = !test_mode && !args.launch_child && (args.save || args.history.is_some());
    let location = wanted.then(|| {
        Location::to_keep(args.history.as_deref(), &here()?)
            .map_err(|e| BenchError::History(e.to_string()))
    });
    let saver = plumb_history::Saver::open(location.transpose()?)
        .map_err(|e| BenchError::History(e.to_string()))?;
    Ok(Saver(saver))
}

#[cfg(feature = "history")]
impl Saver {
    /// Keeps `doc`; `json`, its JSON export, is where the error says the result is when
    /// the store fails.
    pub(crate) fn keep(self, doc: &ResultDocument, json: Option<&Path>) -> Result<(), BenchError> {
        let mut say = |line: String| eprintln!("plumb-bench: {line}");
        let at = (&*here()?, json);
        (self.0.keep(doc, at, &mut say)).map_err(|e| BenchError::History(e.to_string()))
    }
}
