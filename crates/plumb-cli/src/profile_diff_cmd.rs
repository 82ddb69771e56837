//! `plumb profile --diff BEFORE AFTER`: how each function's share moved, and a
//! differential flame graph.

use crate::exit::{self, CliError, Outcome};
use plumb_profile::read_saved;
use plumb_report::targets::OutputDir as Outputs;
use std::path::Path;

pub fn run(before: &Path, after: &Path, out: &Path, top: usize) -> Result<Outcome, CliError> {
    let outputs = Outputs::prepare("--out", out)?;
    let (b, a) = (read_saved(before)?, read_saved(after)?);
    let rows = plumb_analysis::share_changes(&b, &a, 0.95);
    let (bn, an) = (
        format!("{} ({} samples)", before.display(), b.samples),
        format!("{} ({} samples)", after.display(), a.samples),
    );
    let table = plumb_report::render_share_changes(&bn, &an, &rows, top);
    let svg = plumb_report::flamegraph::differential_svg(
        &b.stacks,
        &a.stacks,
        &format!("{} → {}", before.display(), after.display()),
        "AFTER's stacks; red: a larger share than BEFORE, blue: smaller (counts normalised)",
    )?;
    let md = format!("## Profile difference\n\n```\n{table}```\n");
    let written = outputs.write_files(&[("diff.svg", svg), ("diff.md", md)])?;
    exit::print_stdout(&format!(
        "{table}{}",
        crate::export::written_lines(&written)
    ))?;
    Ok(Outcome::Done)
}
