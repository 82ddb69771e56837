//! Keeping a producer's result as it is made (`--save` on plumb run, plumb load and the
//! harness): the store opened and checked writable before anything is measured, the result
//! kept at the working directory's commit once its files are written, a run that did not
//! finish left out.
use crate::{git, Added, Commit, HistoryError, HistoryStore, Location};
use plumb_model::{ResultDocument, RunStatus};
use std::path::Path;

pub struct Keeper {
    location: Location,
    store: Box<dyn HistoryStore>,
}

/// What `Keeper::keep` did.
#[derive(Debug, Clone, PartialEq)]
pub enum Kept {
    /// Kept (or found kept before), at this commit.
    Added {
        added: Added,
        commit: Option<Commit>,
    },
    /// Not kept: the run was stopped (its points would be a level no finished run measured).
    Stopped,
    /// Not kept: the run failed.
    Failed,
}

impl Keeper {
    /// Opens the store at `location`, refusing one that cannot be written or is damaged.
    pub fn open(location: Location) -> Result<Keeper, HistoryError> {
        let store = location.open()?;
        store.writable()?;
        store.sound()?;
        Ok(Keeper { location, store })
    }

    pub fn location(&self) -> &Location {
        &self.location
    }

    /// Keeps `doc` at the commit of the repository at `dir`, when its run finished.
    pub fn keep(&mut self, doc: &ResultDocument, dir: &Path) -> Result<Kept, HistoryError> {
        match doc.status {
            RunStatus::Complete => {}
            RunStatus::Interrupted { .. } => return Ok(Kept::Stopped),
            RunStatus::Failed { .. } => return Ok(Kept::Failed),
        }
        let commit = git::commit(dir, None)?;
        let added = self.store.add(doc, commit.as_ref())?;
        Ok(Kept::Added { added, commit })
    }
}

/// A store opened before measuring (so a store that cannot be used stops the run before
/// it starts), to keep the result in once its files are written: `--save` and
/// `--history` of `plumb run`, `plumb load` and the harness alike.
pub struct Saver(Option<Keeper>);

/// A store that could not be opened or kept in, named (a URL without its password).
#[derive(Debug)]
pub struct SaveError {
    pub store: String,
    pub error: HistoryError,
    /// The result's files were written before the store failed.
    pub files_written: bool,
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.store, self.error)?;
        if self.files_written {
            f.write_str(" (the result files are written)")?;
        }
        Ok(())
    }
}

impl std::error::Error for SaveError {}

impl Saver {
    /// The store at `location` opened and checked writable; nothing when none is wanted.
    pub fn open(location: Option<Location>) -> Result<Saver, SaveError> {
        let Some(location) = location else {
            return Ok(Saver(None));
        };
        let store = location.shown();
        Keeper::open(location)
            .map(|k| Saver(Some(k)))
            .map_err(|error| SaveError {
                store,
                error,
                files_written: false,
            })
    }

    /// Keeps `doc` at the commit of the repository at `dir`; what became of it said
    /// through `say` (a stopped or failed run is not kept).
    pub fn keep(
        self,
        doc: &ResultDocument,
        dir: &Path,
        say: &mut dyn FnMut(String),
    ) -> Result<(), SaveError> {
        let Some(mut keeper) = self.0 else {
            return Ok(());
        };
        let kept = keeper.keep(doc, dir).map_err(|error| SaveError {
            store: keeper.location().shown(),
            error,
            files_written: true,
        })?;
        say(match kept {
            Kept::Added { added, commit } => kept_as(added.run, commit.as_ref(), keeper.location()),
            Kept::Stopped => "not kept in the history: the run was stopped".into(),
            Kept::Failed => "not kept in the history: the run failed".into(),
        });
        Ok(())
    }
}

/// "kept as run 12 at 0123456789 (dirty) in PATH".
pub fn kept_as(run: i64, commit: Option<&Commit>, location: &Location) -> String {
    let at = commit
        .map(|c| {
            let dirty = if c.dirty { " (dirty)" } else { "" };
            format!(" at {}{dirty}", git::short(&c.sha))
        })
        .unwrap_or_default();
    format!("kept as run {run}{at} in {}", location.shown())
}
