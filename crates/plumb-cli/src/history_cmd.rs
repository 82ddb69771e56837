//! `plumb history`: open the store, and its subcommands that keep and list (`add`, `list`,
//! `ack`); finding change points is `history_changes.rs`. `Saver` keeps a result of
//! `plumb run` or `plumb load` given `--save`.
use crate::args::{HistoryArgs, HistoryCommand, SaveArgs};
use crate::exit::{self, CliError};
use crate::{compare_cmd, history_changes, history_out, history_show};
use plumb_history::git as history_git;
use plumb_history::{kept_as, ChangeStatus, HistoryStore, Keeper, Kept, Location};
use plumb_model::ResultDocument;

pub fn run(args: HistoryArgs) -> Result<i32, CliError> {
    let location = location(args.history)?;
    match args.command {
        HistoryCommand::Add(a) => {
            // Every file is read before the store is touched: one bad file adds nothing.
            let docs = a
                .results
                .iter()
                .map(|p| compare_cmd::load(p, a.import.format))
                .collect::<Result<Vec<_>, _>>()?;
            let here = std::env::current_dir()?;
            let commit = history_git::commit(&here, a.commit.as_deref())?;
            let mut store = open(&location)?;
            for (doc, file) in docs.iter().zip(&a.results) {
                let added = store
                    .add(doc, commit.as_ref())
                    .map_err(|e| CliError(format!("{}: {e}", location.shown())))?;
                let said = if added.new {
                    kept_as(added.run, commit.as_ref(), &location)
                } else {
                    format!("kept before as run {}: not kept again", added.run)
                };
                eprintln!("plumb: {}: {said}", file.display());
                if let Some(note) = outside_series(doc) {
                    eprintln!("plumb: note: {}: {note}", file.display());
                }
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
        HistoryCommand::Confirm(a) => crate::history_confirm::run(open(&location)?.as_mut(), &a),
        HistoryCommand::Ack(a) => {
            let (series, run) = parse_change(&a.change)?;
            let mut store = open(&location)?;
            store.set_status(series, run, ChangeStatus::Acknowledged, a.note.as_deref())?;
            eprintln!("plumb: change {series}@{run} acknowledged");
            Ok(exit::OK)
        }
    }
}

/// What is said of the imported benchmarks that give no point to a series.
fn outside_series(doc: &ResultDocument) -> Option<String> {
    let names = plumb_history::outside_series(doc);
    (!names.is_empty()).then(|| {
        format!(
            "{} benchmark(s) kept with the run but in no series: their harness's summary gives no mean and median ({})",
            names.len(),
            names.join(", ")
        )
    })
}

/// A change as `plumb history changes` names it: SERIES@RUN.
pub fn parse_change(text: &str) -> Result<(i64, i64), CliError> {
    text.split_once('@')
        .and_then(|(s, r)| Some((s.parse().ok()?, r.parse().ok()?)))
        .ok_or_else(|| {
            CliError(format!(
                "{text}: a change is SERIES@RUN, as plumb history changes names it (e.g. 3@41)"
            ))
        })
}

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
        let keeper = Keeper::open(location).map_err(|e| CliError(format!("{shown}: {e}")))?;
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
            CliError(format!("{shown}: {e} (the result files are written)"))
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
fn location(given: Option<String>) -> Result<Location, CliError> {
    if given.as_deref() == Some("") {
        return Err(CliError("--history: an empty path".into()));
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
