//! `plumb history`: open the store, and its subcommands that keep and list (`add`, `list`,
//! `ack`); finding change points is `history_changes.rs`. `Saver` keeps a result of
//! `plumb run` or `plumb load` given `--save`.
use crate::args::{HistoryArgs, HistoryCommand, SaveArgs};
use crate::exit::{self, CliError};
use crate::{compare_cmd, history_changes, history_out, history_show};
use plumb_history::git as history_git;
use plumb_history::{ChangeStatus, Commit, HistoryStore, Location};
use plumb_model::{ResultDocument, RunStatus};

pub fn run(args: HistoryArgs) -> Result<i32, CliError> {
    let location = location(args.history)?;
    match args.command {
        HistoryCommand::Add(a) => {
            // Every file is read before the store is touched: one bad file adds nothing.
            let docs = a
                .results
                .iter()
                .map(|p| compare_cmd::load(p))
                .collect::<Result<Vec<_>, _>>()?;
            let here = std::env::current_dir()?;
            let commit = history_git::commit(&here, a.commit.as_deref())?;
            let mut store = open(&location)?;
            for (doc, file) in docs.iter().zip(&a.results) {
                let added = store
                    .add(doc, commit.as_ref())
                    .map_err(|e| CliError(format!("{}: {e}", location.shown())))?;
                let said = if added.new {
                    kept(added.run, commit.as_ref(), &location)
                } else {
                    format!("kept before as run {}: not kept again", added.run)
                };
                eprintln!("plumb: {}: {said}", file.display());
            }
            Ok(exit::OK)
        }
        HistoryCommand::List => {
            let mut store = open(&location)?;
            exit::print_stdout(&history_out::list(store.as_mut())?)?;
            Ok(exit::OK)
        }
        HistoryCommand::Show(a) => history_show::show(open(&location)?.as_mut(), &a),
        HistoryCommand::Export(a) => history_show::export(open(&location)?.as_mut(), &a),
        HistoryCommand::Changes(a) => history_changes::run(open(&location)?.as_mut(), &a),
        HistoryCommand::Ack(a) => {
            let (series, run) = a
                .change
                .split_once('@')
                .and_then(|(s, r)| Some((s.parse().ok()?, r.parse().ok()?)))
                .ok_or_else(|| {
                    CliError(format!(
                        "{}: a change is SERIES@RUN, as plumb history changes names it (e.g. 3@41)",
                        a.change
                    ))
                })?;
            let mut store = open(&location)?;
            store.set_status(series, run, ChangeStatus::Acknowledged, a.note.as_deref())?;
            eprintln!("plumb: change {series}@{run} acknowledged");
            Ok(exit::OK)
        }
    }
}

/// A store opened before measuring (so a store that cannot be used stops the run before it
/// starts), to keep the result in once its files are written.
pub struct Saver {
    store: Option<(Location, Box<dyn HistoryStore>)>,
}

impl Saver {
    /// Opens the store `args` ask for; nothing when they ask for none.
    pub fn open(args: &SaveArgs) -> Result<Saver, CliError> {
        if !args.save && args.history.is_none() {
            return Ok(Saver { store: None });
        }
        let location = location(args.history.clone().or_else(env_store))?;
        let store = open(&location)?;
        store
            .writable()
            .map_err(|e| CliError(format!("{}: {e}", location.shown())))?;
        Ok(Saver {
            store: Some((location, store)),
        })
    }

    /// Keeps `doc` at the working directory's commit; a stopped or failed run is not kept
    /// (its points would be a level no finished run measured), and says so.
    pub fn keep(self, doc: &ResultDocument) -> Result<(), CliError> {
        let Some((location, mut store)) = self.store else {
            return Ok(());
        };
        match &doc.status {
            RunStatus::Complete => {}
            RunStatus::Interrupted { .. } => {
                eprintln!("plumb: not kept in the history: the run was stopped");
                return Ok(());
            }
            RunStatus::Failed { .. } => {
                eprintln!("plumb: not kept in the history: the run failed");
                return Ok(());
            }
        }
        let commit = history_git::commit(&std::env::current_dir()?, None)?;
        let added = store.add(doc, commit.as_ref()).map_err(|e| {
            CliError(format!(
                "{}: {e} (the result files are written)",
                location.shown()
            ))
        })?;
        eprintln!("plumb: {}", kept(added.run, commit.as_ref(), &location));
        Ok(())
    }
}

/// $PLUMB_HISTORY, when set and not empty.
fn env_store() -> Option<String> {
    std::env::var("PLUMB_HISTORY")
        .ok()
        .filter(|v| !v.is_empty())
}

/// "kept as run 12 at 0123456789 (dirty) in PATH".
fn kept(run: i64, commit: Option<&Commit>, location: &Location) -> String {
    let at = commit
        .map(|c| {
            let dirty = if c.dirty { " (dirty)" } else { "" };
            format!(" at {}{dirty}", short(&c.sha))
        })
        .unwrap_or_default();
    format!("kept as run {run}{at} in {}", location.shown())
}

/// The store: given, or the default under the git top level.
fn location(given: Option<String>) -> Result<Location, CliError> {
    match given {
        Some(p) if p.is_empty() => Err(CliError("--history: an empty path".into())),
        Some(p) => Ok(Location::parse(&p)),
        None => Ok(Location::Sqlite(history_git::default_store(
            &std::env::current_dir()?,
        ))),
    }
}

/// A store to read that must already exist: the one named (`given`, else $PLUMB_HISTORY;
/// a missing file is an error), else the default one when its file is there (None when
/// not).
pub fn existing(given: Option<String>) -> Result<Option<Location>, CliError> {
    let location = match given.filter(|g| !g.is_empty()).or_else(env_store) {
        Some(text) => Location::parse(&text),
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
            return Err(CliError(format!(
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
        .map_err(|e| CliError(format!("{}: {e}", location.shown())))
}

/// A sha's first 10 characters, as people say it (a label given with --commit outside git
/// may be any text: cut at a character, never inside one).
pub fn short(sha: &str) -> &str {
    match sha.char_indices().nth(10) {
        Some((at, _)) => &sha[..at],
        None => sha,
    }
}
