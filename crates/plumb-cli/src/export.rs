//! Export targets are checked before anything runs (an unwritable path should cost no
//! measurement) and written after, whether the run completed, failed or was interrupted.

use crate::exit::CliError;
use plumb_model::ResultDocument;
use plumb_report::Format;
use std::fs::OpenOptions;
use std::path::PathBuf;

pub struct Target {
    pub path: PathBuf,
    pub format: Format,
}

/// Opens each path for writing without truncating it, to fail early on a bad path. A
/// file this check creates is removed again, so an aborted run leaves no empty files.
pub fn check(targets: &[Target]) -> Result<(), CliError> {
    for t in targets {
        let existed = t.path.exists();
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&t.path)
            .map_err(|e| CliError(format!("cannot write {}: {e}", t.path.display())))?;
        if !existed {
            let _ = std::fs::remove_file(&t.path);
        }
    }
    Ok(())
}

/// Writes every target. If one fails, the JSON result is saved to a rescue file in the
/// temporary directory so the samples are not lost, and the error names it.
pub fn write_all(targets: &[Target], doc: &ResultDocument) -> Result<(), CliError> {
    let mut failures = Vec::new();
    for t in targets {
        if let Err(e) = std::fs::write(&t.path, t.format.render(doc)) {
            failures.push(format!("cannot write {}: {e}", t.path.display()));
        }
    }
    if failures.is_empty() {
        return Ok(());
    }
    let rescue = std::env::temp_dir().join(format!("plumb-rescue-{}.json", std::process::id()));
    let saved = match std::fs::write(&rescue, doc.to_json()) {
        Ok(()) => format!("; the full result was saved to {}", rescue.display()),
        Err(e) => format!("; saving it to {} failed too: {e}", rescue.display()),
    };
    Err(CliError(failures.join("; ") + &saved))
}
