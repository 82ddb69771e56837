//! `--save` / `--history PATH`: the harness keeps its result in the history store, as
//! `plumb run --save` does (plumb-history's `Keeper`): the store opened before anything is
//! measured (one that cannot be written stops the run first), the result kept after its
//! files are written, at the working directory's commit; a stopped run is not kept.
//! Without the `history` feature the options are refused as they are parsed, and the
//! saver keeps nothing.
use crate::args::Args;
use crate::error::BenchError;
#[cfg(feature = "history")]
use plumb_history::{kept_as, Keeper, Kept, Location};
use plumb_model::ResultDocument;
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
    pub(crate) fn keep(self, _: &ResultDocument) -> Result<(), BenchError> {
        Ok(())
    }
}

#[cfg(feature = "history")]
pub(crate) struct Saver(Option<Keeper>);

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
    if test_mode || args.launch_child || (!args.save && args.history.is_none()) {
        return Ok(Saver(None));
    }
    let location = Location::resolve(args.history.as_deref(), &here()?);
    let shown = location.shown();
    let keeper =
        Keeper::open(location).map_err(|e| BenchError::History(format!("{shown}: {e}")))?;
    Ok(Saver(Some(keeper)))
}

#[cfg(feature = "history")]
impl Saver {
    pub(crate) fn keep(self, doc: &ResultDocument) -> Result<(), BenchError> {
        let Some(mut keeper) = self.0 else {
            return Ok(());
        };
        let kept = keeper.keep(doc, &here()?).map_err(|e| {
            let shown = keeper.location().shown();
            BenchError::History(format!("{shown}: {e} (the result files are written)"))
        })?;
        match kept {
            Kept::Added { added, commit } => {
                eprintln!("{}", kept_as(added.run, commit.as_ref(), keeper.location()));
            }
            Kept::Stopped | Kept::Failed => {
                eprintln!("plumb-bench: not kept in the history: the run did not finish");
            }
        }
        Ok(())
    }
}
