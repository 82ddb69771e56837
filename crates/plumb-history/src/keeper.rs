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
    /// Opens the store at `location`, refusing one that cannot be written.
    pub fn open(location: Location) -> Result<Keeper, HistoryError> {
        let store = location.open()?;
        store.writable()?;
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
