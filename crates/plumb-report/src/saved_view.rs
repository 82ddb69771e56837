//! `plumb show`: a saved result told again — what it is, when and where it was measured,
//! then each of its parts as the command that made it showed it (the table, the load
//! tests, the in-situ regions, the profiles), and with `environment` the machine.
use crate::{render_connection, render_environment, render_environment_record, render_load};
use plumb_model::{format, Diagnostic, ProducerSettings, ResultDocument};

/// `doc`, read from `path`; `environment` holds the machine's findings when the machine is
/// to be shown.
pub fn render_saved(
    path: &str,
    doc: &ResultDocument,
    environment: Option<&[Diagnostic]>,
) -> String {
    let when = format::date(doc.started);
    let env = &doc.environment;
    let host = env.hostname.as_deref().unwrap_or("an unknown host");
    let cpu = env.cpu_model.as_deref().unwrap_or("an unknown CPU");
    let what = match &doc.settings.producer {
        ProducerSettings::Imported { tool } => format!("{} export", format::a_or_an(tool)),
        _ => format!("plumb {} result", doc.tool.version),
    };
    let mut out = format!("{path}: {what}, {when}, on {host} ({cpu})\n\n");
    let (load, timed): (Vec<_>, Vec<_>) = doc.benchmarks.iter().partition(|b| b.load().is_some());
    if !timed.is_empty() {
        out.push_str(&crate::render_terminal(doc));
    }
    if !load.is_empty() {
        out.push_str(&render_connection(&doc.settings.producer));
    }
    for b in load {
        out.push_str(&render_load(b, false));
    }
    if !doc.regions.is_empty() {
        out.push_str(&crate::render_regions(doc));
    }
    for p in &doc.profiles {
        out.push_str(&crate::render_profile(
            p,
            doc.settings.producer.profile(),
            20,
        ));
    }
    if environment.is_some() && !doc.machine_recorded() {
        out.push_str("\nThe machine it was measured on: not recorded (an import holds only what its file says; nothing here is known to be absent)\n");
    } else if let Some(findings) = environment {
        out.push_str("\nThe machine it was measured on:\n");
        // Its findings are the report's (above) when it has a table; said once.
        if timed.is_empty() {
            out.push_str(&render_environment(env, findings));
        } else {
            out.push_str(&render_environment_record(env));
        }
    }
    out.push('\n');
    out
}
