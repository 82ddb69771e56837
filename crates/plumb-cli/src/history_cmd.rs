//! `plumb history`: open the store, and its subcommands that keep and list (`add`, `list`,
//! `ack`); finding change points is `history_changes.rs`.
use crate::args::{HistoryArgs, HistoryCommand};
use crate::exit::{self, CliError};
use crate::{compare_cmd, history_changes, history_git};
use plumb_history::{ChangeStatus, HistoryStore, SqliteStore};
use std::path::PathBuf;

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
