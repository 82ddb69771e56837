//! The `plumb show` subcommand: saved results rendered again, or one converted to other formats.
use crate::args::ShowArgs;
use crate::exit::{CliError, Outcome};
use crate::export;
use crate::results_in::load;
use plumb_analysis::environment_diagnostics;
use plumb_report::render_saved;

/// Renders saved results, and converts one to other formats.
pub fn run(a: ShowArgs) -> Result<Outcome, CliError> {
    let targets = export::targets_of(&a.exports);
    if !targets.is_empty() && a.results.len() > 1 {
        return Err(CliError::msg(
            "--export-* converts one result; give one file, or show several without exporting"
                .into(),
        ));
    }
    for t in &targets {
        export::refuse_overwrite(t.option, &a.results, &t.path, "results", "export")?;
    }
    export::check(&targets)?;
    let mut text = String::new();
    for path in &a.results {
        let doc = load(path, a.import.format)?;
        let findings = a
            .environment
            .then(|| environment_diagnostics(&doc.environment));
        text.push_str(&render_saved(
            &path.display().to_string(),
            &doc,
            findings.as_deref(),
        ));
        if !targets.is_empty() {
            export::write_all(&targets, &doc)?;
        }
    }
    export::print_report(&targets, &text)?;
    Ok(Outcome::Done)
}
