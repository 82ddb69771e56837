//! The history store as the CLI opens it: where it is (--history, $PLUMB_HISTORY, the
//! default under the git top level), one that must already exist, and plumb-history's
//! `Saver` that keeps a result given `--save`.
use crate::args::SaveArgs;
use crate::exit::CliError;
use plumb_history::{HistoryStore, Location, Saver};
use plumb_model::ResultDocument;
use plumb_report::targets::ExportTarget;
use plumb_report::Format;

/// The store `--save`/`--history` ask for, opened before measuring (plumb-history's
/// `Saver`, the harness's too); nothing when they ask for none.
pub fn saver(args: &SaveArgs) -> Result<Saver, CliError> {
    let wanted = args.save || args.history.is_some();
    let location = wanted.then(|| location(args.history.clone())).transpose()?;
    Ok(Saver::open(location)?)
}

/// Keeps `doc` in the store `saver` opened, at the working directory's commit.
pub fn keep(saver: Saver, doc: &ResultDocument, targets: &[ExportTarget]) -> Result<(), CliError> {
    let json = targets
        .iter()
        .find(|t| t.format == Format::Json && !t.is_stdout());
    let at = (&*std::env::current_dir()?, json.map(|t| t.path.as_path()));
    Ok(saver.keep(doc, at, &mut crate::exit::say)?)
}

/// The store to keep results in (plumb-history's `Location::to_keep`), from the
/// working directory.
pub fn location(given: Option<String>) -> Result<Location, CliError> {
    Ok(Location::to_keep(
        given.as_deref(),
        &std::env::current_dir()?,
    )?)
}

/// A store to read that must already exist (plumb-history's `Location::existing`).
pub fn existing(given: Option<String>) -> Result<Option<Location>, CliError> {
    Ok(Location::existing(
        given.as_deref(),
        &std::env::current_dir()?,
    )?)
}

/// A store a reading command reads, which must exist (plumb-history's `Location::to_read`).
pub fn to_read(given: Option<String>) -> Result<Location, CliError> {
    Ok(Location::to_read(
        given.as_deref(),
        &std::env::current_dir()?,
    )?)
}

/// Refuses `output` (given with `flag`) when it is the store at `location`: writing it
/// would overwrite the history.
pub fn refuse_store(
    flag: &str,
    location: &Location,
    output: &std::path::Path,
) -> Result<(), CliError> {
    match location {
        Location::Sqlite(store) => crate::export::refuse_overwrite(
            flag,
            std::slice::from_ref(store),
            output,
            "inputs",
            "output",
        ),
        Location::Postgres(_) => Ok(()),
    }
}

/// Opens the store; an error names it (a URL without its password).
pub fn open(location: &Location) -> Result<Box<dyn HistoryStore>, CliError> {
    location
        .open()
        .map_err(|e| CliError::msg(format!("{}: {e}", location.shown())))
}
