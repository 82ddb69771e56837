//! A coordinated test's result: each agent's document kept beside the merged one (so
//! `plumb merge` makes it again), the merge `plumb merge` does, the coordination (the
//! start, each agent's clock and fate) recorded, the gates evaluated on the merged data
//! and each agent's lateness named, and the result marked incomplete when an agent is
//! missing; and the text that says it.
use crate::gates::{attach_gates, gates_of};
use crate::{merged_document, LoadTestError};
use plumb_analysis::load_checks;
use plumb_load::agents::coordinator::{Outcome, Part};
use plumb_model::quantity::{Duration, Timestamp};
use plumb_model::{
    format, CoordinatedAgent, Coordination, Invocation, ProducerSettings, ResultDocument, RunStatus,
};
use plumb_report::targets::{write_all, ExportTarget};
use plumb_report::Format;
use std::path::{Path, PathBuf};

/// Where the coordinator listened and what it waited for.
pub struct Coordinated<'a> {
    /// The merged result's file; each agent's is kept beside it (`part_path`).
    pub output: &'a Path,
    /// The agents the test was given.
    pub count: u32,
    /// The address it listened on.
    pub listen: &'a str,
    /// The signal that stopped the coordinator, by name, when one did.
    pub stopped_by: Option<String>,
}

/// Where agent `index`'s own result goes, beside `output`: `all.json` → `all.agent-3.json`.
pub fn part_path(output: &Path, index: u32) -> PathBuf {
    let stem = output
        .file_stem()
        .map_or("result".into(), |s| s.to_string_lossy().into_owned());
    output.with_file_name(format!("{stem}.agent-{index}.json"))
}

/// The merged document and the text for the terminal; each agent's own document
/// written beside the merged one's `output`.
pub fn merged(
    a: &Coordinated,
    outcome: &Outcome,
) -> Result<(ResultDocument, String), LoadTestError> {
    let mut missing: Vec<(u32, String)> = Vec::new();
    let mut docs = Vec::new();
    let mut paths = Vec::new();
    for p in &outcome.parts {
        match document_of(p, a.count, outcome.start_at) {
            Ok(doc) => {
                let path = part_path(a.output, p.index());
                let target = ExportTarget::new("--output", path.clone(), Format::Json);
                write_all(&[target], &doc)?;
                // A share cut short (the agent stopped by a signal, or a run that broke)
                // is kept, but not merged: its window would not cover the others'.
                match &doc.status {
                    RunStatus::Complete => {
                        paths.push(path.display().to_string());
                        docs.push(doc);
                    }
                    RunStatus::Interrupted { .. } | RunStatus::Failed { .. } => missing.push((
                        p.index(),
                        format!(
                            "its test did not finish; what it measured is in {}",
                            path.display()
                        ),
                    )),
                }
            }
            Err(why) => missing.push((p.index(), why.to_string())),
        }
    }
    if docs.is_empty() {
        return Err(LoadTestError::NothingArrived {
            why: said(&missing, outcome),
        });
    }
    let mut doc = merged_document(&docs, &paths, false, Invocation::current()).map_err(|e| {
        LoadTestError::Unmerged {
            error: Box::new(e),
            kept: paths.clone(),
        }
    })?;
    record(&mut doc, a, outcome, &missing);
    gates(&mut doc, &docs);
    if outcome.interrupted {
        doc.status = RunStatus::Interrupted {
            signal: a.stopped_by.clone(),
        };
    } else if !missing.is_empty() || outcome.parts.len() < a.count as usize {
        doc.status = RunStatus::Failed {
            message: format!(
                "incomplete: {} of {} agents' results ({})",
                docs.len(),
                a.count,
                said(&missing, outcome)
            ),
        };
    }
    let text = text(&doc, outcome, &paths, &missing);
    Ok((doc, text))
}

/// Why an agent's share has no result document to merge.
enum NoPart {
    Lost(String),
    Failed(String),
    NoResult,
    NotUtf8,
    Unreadable(plumb_model::ModelError),
    NotThisTest { index: u32, count: u32 },
}

impl std::fmt::Display for NoPart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoPart::Lost(l) => write!(f, "lost: {l}"),
            NoPart::Failed(why) => f.write_str(why),
            NoPart::NoResult => f.write_str("no result"),
            NoPart::NotUtf8 => f.write_str("its result is not UTF-8"),
            NoPart::Unreadable(e) => write!(f, "its result does not read: {e}"),
            NoPart::NotThisTest { index, count } => write!(
                f,
                "its result is not agent {index} of {count}'s share of this test"
            ),
        }
    }
}

/// An agent's result document, or why it has none.
fn document_of(p: &Part, count: u32, start_at: Timestamp) -> Result<ResultDocument, NoPart> {
    if let Some(l) = &p.lost {
        return Err(NoPart::Lost(l.to_string()));
    }
    if let Some(why) = &p.failed {
        return Err(NoPart::Failed(why.clone()));
    }
    let bytes = p.result.as_ref().ok_or(NoPart::NoResult)?;
    let text = std::str::from_utf8(bytes).map_err(|_| NoPart::NotUtf8)?;
    let mut doc = ResultDocument::from_json(text).map_err(NoPart::Unreadable)?;
    // An agent hides its secrets from its command line; hidden again here, where its
    // document is written, in case it is a plumb that did not.
    let argv = std::mem::take(&mut doc.invocation.argv);
    doc.invocation.argv = plumb_model::redact::argv(argv);
    // The result must be of this test: this agent's share of N, started at the start
    // given (a result kept from another run, sent by mistake, is refused).
    let (share, start) = match &doc.settings.producer {
        ProducerSettings::Load(s) => (s.agents, s.start_at),
        _ => (None, None),
    };
    match share {
        Some(s) if s.index == p.index() && s.count == count && start == Some(start_at) => Ok(doc),
        _ => Err(NoPart::NotThisTest {
            index: p.index(),
            count,
        }),
    }
}

fn said(missing: &[(u32, String)], outcome: &Outcome) -> String {
    missing
        .iter()
        .map(|(i, why)| {
            let name = outcome
                .parts
                .iter()
                .find(|p| p.index() == *i)
                .map_or("?", |p| p.name());
            format!("{name}: {why}")
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn record(doc: &mut ResultDocument, a: &Coordinated, outcome: &Outcome, missing: &[(u32, String)]) {
    let ProducerSettings::Merged(m) = &mut doc.settings.producer else {
        return;
    };
    let agents = outcome
        .parts
        .iter()
        .map(|p| {
            let offset = p.offset.unwrap_or(plumb_load::agents::clock::Offset {
                offset: Default::default(),
                round_trip: Duration::ZERO,
            });
            CoordinatedAgent {
                index: p.index(),
                name: p.name().to_string(),
                address: p.peer.to_string(),
                start_on_own_clock: offset.offset.to_agent(outcome.start_at),
                round_trip: offset.round_trip,
                missing: missing
                    .iter()
                    .find(|(i, _)| *i == p.index())
                    .map(|(_, w)| w.clone()),
            }
        })
        .collect();
    m.coordination = Some(Box::new(Coordination {
        listen: a.listen.to_string(),
        start_at: outcome.start_at,
        count: a.count,
        agents,
    }));
}

/// The gates on the merged data (as one generator's result would be judged), and each
/// agent that fell behind named: a late agent's share is late even when the merged
/// lateness, diluted by the others, is not.
fn gates(doc: &mut ResultDocument, parts: &[ResultDocument]) {
    let Some(ProducerSettings::Load(s)) = parts.first().map(|d| &d.settings.producer) else {
        return;
    };
    let gates = gates_of(s);
    attach_gates(&mut doc.benchmarks, gates);
    let each: Vec<(String, &plumb_model::LoadInfo)> = parts
        .iter()
        .filter_map(|d| {
            let name = match &d.settings.producer {
                ProducerSettings::Load(s) => s.agent.clone().unwrap_or_default(),
                _ => String::new(),
            };
            Some((name, d.benchmarks.first()?.load()?))
        })
        .collect();
    let behind = load_checks::merged::agents_behind(&each, gates);
    if let Some(first) = doc.benchmarks.first_mut() {
        first.diagnostics.extend(behind);
    }
}

/// The coordination (start, each agent's clock and fate, the skew its clocks allow),
/// then the merged result as `plumb merge` shows it.
fn text(
    doc: &ResultDocument,
    outcome: &Outcome,
    paths: &[String],
    missing: &[(u32, String)],
) -> String {
    let mut t = String::new();
    if let RunStatus::Failed { message } = &doc.status {
        t.push_str(&format!("The result is {message}.\n\n"));
    }
    let at = outcome.start_at;
    t.push_str(&format!(
        "Coordinated {} agents, started at {at}\n",
        outcome.parts.len()
    ));
    let mut worst = [Duration::ZERO; 2];
    for p in &outcome.parts {
        let clock = match p.offset {
            Some(o) => {
                let u = o.uncertainty();
                if u > worst[0] {
                    worst = [u, worst[0]];
                } else if u > worst[1] {
                    worst[1] = u;
                }
                format!("clock {} ± {}", o.offset.way(), format::time(u))
            }
            None => "clock not measured".into(),
        };
        let fate = match (&p.result, &p.lost, &p.failed) {
            (_, Some(l), _) => format!("LOST: {l}"),
            (_, _, Some(f)) => format!("FAILED: {f}"),
            (Some(_), _, _) => match missing.iter().find(|(i, _)| *i == p.index()) {
                Some((_, why)) => format!("NOT MERGED: {why}"),
                None => "result merged".into(),
            },
            _ => "no result".into(),
        };
        t.push_str(&format!(
            "  {:>3}  {:<12} {:<22} {clock:<32} {fate}\n",
            p.index(),
            p.name(),
            p.peer
        ));
    }
    t.push_str(&format!(
        "  start skew at most {} (the two largest offset uncertainties), plus each agent's own lateness\n",
        format::time(worst[0] + worst[1])
    ));
    t.push_str(&format!("  each agent's result: {}\n\n", paths.join(", ")));
    for b in &doc.benchmarks {
        t.push_str(&plumb_report::render_load(b, false));
    }
    t
}
