//! `plumb history`: open the store, and its subcommands that keep and list (`add`, `list`,
//! `ack`); finding change points is `history_changes.rs`.
use crate::args::{HistoryArgs, HistoryCommand, SaveArgs};
use crate::exit::{self, CliError};
use crate::{compare_cmd, history_changes, history_git};
use plumb_history::{ChangeStatus, Commit, HistoryStore, SqliteStore};
use plumb_model::{ResultDocument, RunStatus};
use std::path::{Path, PathBuf};

pub fn run(args: HistoryArgs) -> Result<i32, CliError> {
    let path = store_path(args.history)?;
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
            let mut store = open(&path)?;
            for (doc, file) in docs.iter().zip(&a.results) {
                let run = store.add(doc, commit.as_ref())?;
                eprintln!(
                    "plumb: kept {} ({} benchmarks) as run {run}{} in {}",
                    file.display(),
                    doc.benchmarks.len(),
                    commit
                        .as_ref()
                        .map(|c| format!(
                            " at {}{}",
                            short(&c.sha),
                            if c.dirty { " (dirty)" } else { "" }
                        ))
                        .unwrap_or_default(),
                    path.display()
                );
            }
            Ok(exit::OK)
        }
        HistoryCommand::List => {
            let store = open(&path)?;
            exit::print_stdout(&history_changes::list(&store)?)?;
            Ok(exit::OK)
        }
        HistoryCommand::Changes(a) => history_changes::run(&mut open(&path)?, &a),
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
            open(&path)?.set_status(series, run, ChangeStatus::Acknowledged, a.note.as_deref())?;
            eprintln!("plumb: change {series}@{run} acknowledged");
            Ok(exit::OK)
        }
    }
}

/// A store opened before measuring (so a store that cannot be used stops the run before it
/// starts), to keep the result in once its files are written.
pub struct Saver {
    store: Option<(PathBuf, SqliteStore)>,
}

impl Saver {
    /// Opens the store `args` ask for; nothing when they ask for none.
    pub fn open(args: &SaveArgs) -> Result<Saver, CliError> {
        if !args.save && args.history.is_none() {
            return Ok(Saver { store: None });
        }
        let path = store_path(args.history.clone().or_else(env_store))?;
        let store = open(&path)?;
        Ok(Saver {
            store: Some((path, store)),
        })
    }

    /// Keeps `doc` at the working directory's commit; a stopped or failed run is not kept
    /// (its points would be a level no finished run measured), and says so.
    pub fn keep(self, doc: &ResultDocument) -> Result<(), CliError> {
        let Some((path, mut store)) = self.store else {
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
        let run = store.add(doc, commit.as_ref()).map_err(|e| {
            CliError(format!(
                "{}: {e} (the result files are written)",
                path.display()
            ))
        })?;
        eprintln!("plumb: {}", kept(run, commit.as_ref(), &path));
        Ok(())
    }
}

/// $PLUMB_HISTORY, when set and not empty.
fn env_store() -> Option<PathBuf> {
    std::env::var_os("PLUMB_HISTORY")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// "kept as run 12 at 0123456789 (dirty) in PATH".
fn kept(run: i64, commit: Option<&Commit>, path: &Path) -> String {
    let at = commit
        .map(|c| {
            format!(
                " at {}{}",
                short(&c.sha),
                if c.dirty { " (dirty)" } else { "" }
            )
        })
        .unwrap_or_default();
    format!("kept as run {run}{at} in {}", path.display())
}

/// The store's path: given, or the default under the git top level.
fn store_path(given: Option<PathBuf>) -> Result<PathBuf, CliError> {
    match given {
        Some(p) if p.as_os_str().is_empty() => Err(CliError("--history: an empty path".into())),
        Some(p) => Ok(p),
        None => Ok(history_git::default_store(&std::env::current_dir()?)),
    }
}

/// Opens the store at `path`, making its directory when it is missing.
fn open(path: &std::path::Path) -> Result<SqliteStore, CliError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| {
            CliError(format!(
                "cannot make {} for the history: {e}",
                dir.display()
            ))
        })?;
    }
    SqliteStore::open(path).map_err(|e| CliError(format!("{}: {e}", path.display())))
}

/// A sha's first 10 characters, as people say it.
pub fn short(sha: &str) -> &str {
    &sha[..sha.len().min(10)]
}
