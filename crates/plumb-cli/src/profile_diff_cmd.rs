//! `plumb profile --diff BEFORE AFTER`: how each function's share moved, and a
//! differential flame graph.

use crate::exit::{self, CliError, Outcome};
use crate::profile_out::{self, Outputs};
use plumb_model::{Profile, ResultDocument};
use std::path::Path;

pub fn run(before: &Path, after: &Path, out: &Path, top: usize) -> Result<Outcome, CliError> {
    let outputs = Outputs::prepare(out)?;
    let (b, a) = (read(before)?, read(after)?);
    for (p, path) in [(&b, before), (&a, after)] {
        if p.samples == 0 {
            return Err(CliError::msg(format!(
                "{}: the profile has no samples",
                path.display()
            )));
        }
    }
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
    exit::print_stdout(&format!("{table}{}", profile_out::written_lines(&written)))?;
    Ok(Outcome::Done)
}

/// A saved profile: a plumb result with a profile, or `.folded` stacks.
pub fn read(path: &Path) -> Result<Profile, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::msg(format!("cannot read {}: {e}", path.display())))?;
    if text.trim_start().starts_with('{') {
        let doc = ResultDocument::from_json(&text)
            .map_err(|e| CliError::msg(format!("{}: {e}", path.display())))?;
        return doc.profiles.into_iter().next().ok_or_else(|| {
            CliError::msg(format!(
                "{}: a plumb result without a profile (give plumb profile's profile.json)",
                path.display()
            ))
        });
    }
    plumb_profile::from_folded(&path.display().to_string(), &text).map_err(CliError::from)
}
