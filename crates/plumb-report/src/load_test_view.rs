//! A whole load test's terminal report: why the series stopped early if it did, the
//! connection, each target's result (a mix: the whole, then its targets), and the second
//! target against the first.
use crate::{render_connection, render_load, render_load_comparison, render_mix_targets};
use plumb_model::{LoadComparison, ProducerSettings, ResultDocument, RunStatus};

pub fn render_load_test(
    doc: &ResultDocument,
    comparison: Option<&LoadComparison>,
    timeline: bool,
) -> String {
    let mut text = String::new();
    match &doc.status {
        RunStatus::Interrupted { signal } => text.push_str(&format!(
            "Interrupted by {}: the figures below are from the requests measured before it.\n\n",
            signal.as_deref().unwrap_or("a signal")
        )),
        RunStatus::Failed { message } => text.push_str(&format!(
            "{message}: the figures below are from the runs before it.\n\n"
        )),
        RunStatus::Complete => {}
    }
    text.push_str(&render_connection(&doc.settings.producer));
    let mix = matches!(&doc.settings.producer, ProducerSettings::Load(s) if s.mix.is_some());
    if mix {
        text.push_str(&render_load(&doc.benchmarks[0], timeline));
        text.push_str(&render_mix_targets(&doc.benchmarks[1..]));
    } else {
        for b in &doc.benchmarks {
            text.push_str(&render_load(b, timeline));
            text.push('\n');
        }
    }
    if let Some(c) = comparison {
        text.push_str(&render_load_comparison(c));
    }
    format!("{}\n", text.trim_end())
}
