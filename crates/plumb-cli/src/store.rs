//! The history store as the CLI opens it: where it is (--history, $PLUMB_HISTORY, the
//! default under the git top level), one that must already exist, and the `Saver` that
//! keeps a result given `--save`.
use crate::args::SaveArgs;
use crate::exit::CliError;
use plumb_history::git as history_git;
use plumb_history::{kept_as, HistoryStore, Keeper, Kept, Location};
use plumb_model::ResultDocument;

/// A store opened before measuring (so a store that cannot be used stops the run before it
/// starts), to keep the result in once its files are written.
pub struct Saver(Option<Keeper>);

impl Saver {
    /// Opens the store `args` ask for; nothing when they ask for none.
    pub fn open(args: &SaveArgs) -> Result<Saver, CliError> {
        if !args.save && args.history.is_none() {
            return Ok(Saver(None));
        }
        let location = location(args.history.clone())?;
        let shown = location.shown();
        let keeper = Keeper::open(location).map_err(|e| CliError::msg(format!("{shown}: {e}")))?;
        Ok(Saver(Some(keeper)))
    }

    /// Keeps `doc` at the working directory's commit; a stopped or failed run is not kept,
    /// and says so.
    pub fn keep(self, doc: &ResultDocument) -> Result<(), CliError> {
        let Some(mut keeper) = self.0 else {
            return Ok(());
        };
        let kept = keeper.keep(doc, &std::env::current_dir()?).map_err(|e| {
            let shown = keeper.location().shown();
            CliError::msg(format!("{shown}: {e} (the result files are written)"))
        })?;
        match kept {
            Kept::Added { added, commit } => {
                let said = kept_as(added.run, commit.as_ref(), keeper.location());
                eprintln!("plumb: {said}");
            }
            Kept::Stopped => eprintln!("plumb: not kept in the history: the run was stopped"),
            Kept::Failed => eprintln!("plumb: not kept in the history: the run failed"),
        }
        Ok(())
    }
}

/// The store: given (an empty path refused), else $PLUMB_HISTORY, else the default under
/// the git top level.
pub fn location(given: Option<String>) -> Result<Location, CliError> {
    if given.as_deref() == Some("") {
        return Err(CliError::msg("--history: an empty path".into()));
    }
    Ok(Location::resolve(
        given.as_deref(),
        &std::env::current_dir()?,
    ))
}

/// A store to read that must already exist: the one named (`given`, else $PLUMB_HISTORY;
/// a missing file is an error), else the default one when its file is there (None when
/// not).
pub fn existing(given: Option<String>) -> Result<Option<Location>, CliError> {
    let location = match Location::named(given.as_deref()) {
        Some(named) => named,
        None => {
            let path = history_git::default_store(&std::env::current_dir()?);
            if !path.exists() {
                return Ok(None);
            }
            Location::Sqlite(path)
        }
    };
    if let Location::Sqlite(p) = &location {
        if !p.exists() {
            return Err(CliError::msg(format!(
                "--history {}: no such store",
                p.display()
            )));
        }
    }
    Ok(Some(location))
}

/// Opens the store; an error names it (a URL without its password).
pub fn open(location: &Location) -> Result<Box<dyn HistoryStore>, CliError> {
    location
        .open()
        .map_err(|e| CliError::msg(format!("{}: {e}", location.shown())))
}
