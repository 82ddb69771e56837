//! The export options of each subcommand as targets of plumb-report's one export path
//! (`plumb_report::targets`: checked before the run, never truncated, `-`, rescue).

use crate::args::ExportArgs;
use crate::exit::CliError;
use plumb_report::targets::ExportTarget;
use plumb_report::Format;
use std::path::{Path, PathBuf};

// Their ExportError becomes the run's error by `?` (CliError takes any Display).
pub use plumb_report::targets::{check, print_report, save_early, write_all};

/// The targets given, in order.
pub fn targets(given: &[(&'static str, &Option<PathBuf>, Format)]) -> Vec<ExportTarget> {
    given
        .iter()
        .filter_map(|(option, p, format)| {
            p.as_ref()
                .map(|path| ExportTarget::new(option, path.clone(), *format))
        })
        .collect()
}

/// The targets of the `--export-*` options.
pub fn targets_of(a: &ExportArgs) -> Vec<ExportTarget> {
    targets(&[
        ("--export-json", &a.export_json, Format::Json),
        ("--export-markdown", &a.export_markdown, Format::Markdown),
        ("--export-csv", &a.export_csv, Format::Csv),
        ("--report", &a.report, Format::Html),
    ])
}

/// Refuses an `output` (given with `flag`) that is one of the `inputs` (which `what`
/// names, e.g. "inputs"): writing it would overwrite what is being read. `made` names
/// what to write instead.
pub fn refuse_overwrite(
    flag: &str,
    inputs: &[PathBuf],
    output: &Path,
    what: &str,
    made: &str,
) -> Result<(), CliError> {
    let same = plumb_report::targets::same_path;
    match inputs.iter().find(|i| same(i, output)) {
        Some(input) => Err(CliError::msg(format!(
            "{flag} {} is one of the {what} ({}): write the {made} to a new file",
            output.display(),
            input.display()
        ))),
        None => Ok(()),
    }
}

/// The page to `out` (`-`: standard output), said with `what` it holds.
pub fn write_page(out: &Path, html: &str, what: &str) -> Result<(), CliError> {
    plumb_report::targets::write_text(out, html)?;
    if out.as_os_str() != "-" {
        eprintln!("plumb: wrote {} ({what})", out.display());
    }
    Ok(())
}

/// "wrote A, B, C", after the report.
pub fn written_lines(paths: &[std::path::PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    format!("\nwrote {}\n", names.join(", "))
}
