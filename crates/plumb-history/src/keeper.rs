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
    /// Where the result is, when the store failed after the run: its JSON export, or a
    /// rescue file written then (or why that failed too).
    pub result: Option<String>,
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.store, self.error)?;
        if let Some(result) = &self.result {
            write!(f, " ({result})")?;
        }
        Ok(())
    }
}

/// Where `doc` is once its store failed: `json` (its JSON export, written already), else
/// a rescue file in the temporary directory, written now.
fn result_kept(doc: &ResultDocument, json: Option<&Path>) -> String {
    if let Some(file) = json {
        return format!("the result is in {}", file.display());
    }
    let rescue = std::env::temp_dir().join(format!("plumb-rescue-{}.json", std::process::id()));
    match std::fs::write(&rescue, doc.to_json()) {
        Ok(()) => format!("the result is saved to {}", rescue.display()),
        Err(e) => format!("saving the result to {} failed too: {e}", rescue.display()),
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
                result: None,
            })
    }

    /// Keeps `doc` at the commit of the repository at `dir`; what became of it said
    /// through `say` (a stopped or failed run is not kept). When the store fails, the
    /// error says where the result is: `json`, its JSON export already written, else a
    /// rescue file written then.
    pub fn keep(
        self,
        doc: &ResultDocument,
        (dir, json): (&Path, Option<&Path>),
        say: &mut dyn FnMut(String),
    ) -> Result<(), SaveError> {
        let Some(mut keeper) = self.0 else {
            return Ok(());
        };
        let kept = keeper.keep(doc, dir).map_err(|error| SaveError {
            store: keeper.location().shown(),
            error,
            result: Some(result_kept(doc, json)),
        })?;
        say(match kept {
            Kept::Added { added, commit } => kept_as(added.run, commit.as_ref(), keeper.location()),
            Kept::Stopped => "not kept in the history: the run was stopped".into(),
            Kept::Failed => "not kept in the history: the run failed".into(),
        });
        Ok(())
    }
}

/// "kept as run 12 at 0123456789 (dirty) in PATH"; "kept as run 12 in PATH, without a
/// commit (…)" outside git.
pub fn kept_as(run: i64, commit: Option<&Commit>, location: &Location) -> String {
    let at = commit
        .map(|c| {
            let dirty = if c.dirty { " (dirty)" } else { "" };
            format!(" at {}{dirty}", git::short(&c.sha))
        })
        .unwrap_or_default();
    let none = match commit {
        Some(_) => "",
        None => ", without a commit (no git repository here: --commit names one)",
    };
    format!("kept as run {run}{at} in {}{none}", location.shown())
}
