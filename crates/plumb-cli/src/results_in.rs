//! Reading a result file (plumb-import's `read_result`: plumb's own, or another tool's),
//! its notes said on stderr, its missing statistics completed.
use crate::exit::CliError;
use plumb_import::{ForeignTool, ReadResult};
use plumb_model::ResultDocument;
use std::path::Path;

/// Reads a result file: plumb's own (any version it reads), or another tool's export or
/// output directory it imports, found from the content or named by `forced`.
pub fn load(path: &Path, forced: Option<ForeignTool>) -> Result<ResultDocument, CliError> {
    Ok(completed(plumb_import::read_result(path, forced)?, path))
}

/// A result from the `text` read from `path`, as `load` reads it.
pub fn parse(path: &Path, text: &str) -> Result<ResultDocument, CliError> {
    Ok(completed(plumb_import::parse_result(path, text)?, path))
}

/// The result with its notes said and the statistics it lacks completed.
fn completed(read: ReadResult, path: &Path) -> ResultDocument {
    for note in &read.notes {
        eprintln!("plumb: note: {note}");
    }
    let mut doc = read.doc;
    for note in plumb_analysis::complete_statistics(&mut doc) {
        eprintln!("plumb: warning: {}: {note}", path.display());
    }
    doc
}
