//! The `plumb show` subcommand: saved results rendered again, or one converted to other formats.
use crate::args::ShowArgs;
use crate::exit::{CliError, Outcome};
use crate::export;
use crate::results_in::load;
use plumb_analysis::environment_diagnostics;
use plumb_model::{ProducerSettings, ResultDocument};
use plumb_report::{render_environment, render_load, render_terminal};

/// Renders saved results, and converts one to other formats.
pub fn run(a: ShowArgs) -> Result<Outcome, CliError> {
    let targets = export::targets_of(&a.exports);
    if !targets.is_empty() && a.results.len() > 1 {
        return Err(CliError::msg(
            "--export-* converts one result; give one file, or show several without exporting"
                .into(),
        ));
    }
    export::check(&targets)?;
    let mut text = String::new();
    for path in &a.results {
        let doc = load(path, a.import.format)?;
        text.push_str(&render(&path.display().to_string(), &doc, a.environment));
        if !targets.is_empty() {
            export::write_all(&targets, &doc)?;
        }
    }
    export::print_report(&targets, &text)?;
    Ok(Outcome::Done)
}

fn render(path: &str, doc: &ResultDocument, environment: bool) -> String {
    let when = plumb_model::format::date(doc.started);
    let host = doc
        .environment
        .hostname
        .as_deref()
        .unwrap_or("an unknown host");
    let cpu = doc
        .environment
        .cpu_model
        .as_deref()
        .unwrap_or("an unknown CPU");
    let what = match &doc.settings.producer {
        ProducerSettings::Imported { tool } => format!("{} export", plumb_import::a_or_an(tool)),
        _ => format!("plumb {} result", doc.tool.version),
    };
    let mut out = format!("{path}: {what}, {when}, on {host} ({cpu})\n\n");
    let (load, timed): (Vec<_>, Vec<_>) = doc.benchmarks.iter().partition(|b| b.load().is_some());
    if !timed.is_empty() {
        out.push_str(&render_terminal(doc));
    }
    if !load.is_empty() {
        out.push_str(&plumb_report::render_connection(&doc.settings.producer));
    }
    for b in load {
        out.push_str(&render_load(b, false));
    }
    if !doc.regions.is_empty() {
        out.push_str(&plumb_report::render_regions(doc));
    }
    for p in &doc.profiles {
        out.push_str(&plumb_report::render_profile(
            p,
            doc.settings.producer.profile(),
            20,
        ));
    }
    if environment {
        out.push_str("\nThe machine it was measured on:\n");
        // Its findings are the report's (above) when it has a table; said once.
        if timed.is_empty() {
            out.push_str(&render_environment(
                &doc.environment,
                &environment_diagnostics(&doc.environment),
            ));
        } else {
            out.push_str(&plumb_report::render_environment_record(&doc.environment));
        }
    }
    out.push('\n');
    out
}
