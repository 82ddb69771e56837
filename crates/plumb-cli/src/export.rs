//! Export targets are checked before anything runs (an unwritable path, or two outputs to
//! one file, should cost no measurement) and written after, whether the run completed,
//! failed or was interrupted. `-` is standard output.

use crate::args::ExportArgs;
use crate::exit::CliError;
use plumb_model::ResultDocument;
use plumb_report::Format;
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

pub struct Target {
    /// The option that named it, for messages (`--export-json`).
    pub option: &'static str,
    pub path: PathBuf,
    pub format: Format,
}

impl Target {
    pub fn is_stdout(&self) -> bool {
        self.path.as_os_str() == "-"
    }
}

/// The targets given, in order.
pub fn targets(given: &[(&'static str, &Option<PathBuf>, Format)]) -> Vec<Target> {
    given
        .iter()
        .filter_map(|(option, p, format)| {
            p.as_ref().map(|path| Target {
                option,
                path: path.clone(),
                format: *format,
            })
        })
        .collect()
}

/// The targets of the `--export-*` options.
pub fn targets_of(a: &ExportArgs) -> Vec<Target> {
    targets(&[
        ("--export-json", &a.export_json, Format::Json),
        ("--export-markdown", &a.export_markdown, Format::Markdown),
        ("--export-csv", &a.export_csv, Format::Csv),
        ("--report", &a.report, Format::Html),
    ])
}

/// Refuses two outputs to one file (or to stdout), then opens each path for writing
/// without truncating it, to fail early on a bad path. A file this check creates is
/// removed again, so an aborted run leaves no empty files.
pub fn check(targets: &[Target]) -> Result<(), CliError> {
    for (i, t) in targets.iter().enumerate() {
        if let Some(other) = targets[..i].iter().find(|o| same_path(&o.path, &t.path)) {
            return Err(CliError(format!(
                "{} and {} both write {}: give each its own file",
                other.option,
                t.option,
                t.path.display()
            )));
        }
        if t.is_stdout() {
            continue;
        }
        let existed = t.path.exists();
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&t.path)
            .map_err(|e| {
                CliError(format!(
                    "{}: cannot write {}: {e}",
                    t.option,
                    t.path.display()
                ))
            })?;
        if !existed {
            let _ = std::fs::remove_file(&t.path);
        }
    }
    Ok(())
}

/// The same path, or two paths to one existing file.
pub fn same_path(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Refuses an `output` that is one of the `inputs` (which `what` names, e.g. "inputs"):
/// writing it would overwrite what is being read. `made` names what to write instead.
pub fn refuse_input_as_output(
    inputs: &[std::path::PathBuf],
    output: &Path,
    what: &str,
    made: &str,
) -> Result<(), CliError> {
    match inputs.iter().find(|i| same_path(i, output)) {
        Some(input) => Err(CliError(format!(
            "--output {} is one of the {what} ({}): write the {made} to a new file",
            output.display(),
            input.display()
        ))),
        None => Ok(()),
    }
}

/// Prints the human-readable report: to stdout, or to stderr when an export takes stdout.
pub fn print_report(targets: &[Target], report: &str) {
    if targets.iter().any(Target::is_stdout) {
        eprint!("{report}");
    } else {
        crate::exit::print_stdout(report);
    }
}

/// Saves the file targets (not stdout): the raw samples reach disk before the analysis
/// and the report, which a closed stdout or a bug could still stop.
pub fn save_early(targets: &[Target], doc: &ResultDocument) -> Result<(), CliError> {
    let files: Vec<&Target> = targets.iter().filter(|t| !t.is_stdout()).collect();
    write(&files, doc)
}

/// Writes every target. If one fails, the JSON result is saved to a rescue file in the
/// temporary directory so the samples are not lost, and the error names it.
pub fn write_all(targets: &[Target], doc: &ResultDocument) -> Result<(), CliError> {
    write(&targets.iter().collect::<Vec<_>>(), doc)
}

fn write(targets: &[&Target], doc: &ResultDocument) -> Result<(), CliError> {
    let mut failures = Vec::new();
    for t in targets {
        let text = t.format.render(doc);
        if t.is_stdout() {
            crate::exit::print_stdout(&text);
        } else if let Err(e) = std::fs::write(&t.path, text) {
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
