//! The load producer's documents: one load test, and several agents' tests merged. The
//! producer assembles them so the CLI only parses, calls and renders.

use crate::http::LoadReport;
use crate::{join_runs, merge_load, model, CombineError, LoadError};
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{
    Benchmark, BenchmarkKind, Environment, Invocation, LoadInfo, LoadMode, LoadSettings,
    MergedSettings, ProducerSettings, ResultDocument, Settings,
};

/// How a load result is judged and where it ran.
pub struct LoadContext {
    pub confidence: Confidence,
    pub sesoi: Fraction,
    pub environment: Environment,
    pub invocation: Invocation,
}

/// One target's benchmark from its runs, in the order they ran: the run itself, or the
/// runs joined (`--repeat`) with each one kept.
pub fn load_benchmark(
    settings: &LoadSettings,
    reports: &[LoadReport],
) -> Result<Benchmark, LoadError> {
    let (mode, target_rate, concurrency) = match settings.mode {
        LoadMode::Open {
            rate,
            max_in_flight,
            ..
        } => ("open", Some(rate.per_second()), max_in_flight as usize),
        LoadMode::Closed { connections } => ("closed", None, connections as usize),
    };
    let mut b = Benchmark::new(
        format!("{} {}", settings.method, settings.url),
        BenchmarkKind::Load,
    );
    if let Some(agent) = &settings.agent {
        b.parameters.insert("agent".into(), agent.clone());
    }
    let infos: Vec<LoadInfo> = reports
        .iter()
        .map(|r| model::load_info(r, mode, target_rate, concurrency))
        .collect();
    b.set_load(match infos.as_slice() {
        [one] => one.clone(),
        _ => join_runs(&infos)?,
    });
    Ok(b)
}

/// The document of one load test: a benchmark per target (two when a second target was
/// loaded in turn with the first).
pub fn load_document(
    benchmarks: Vec<Benchmark>,
    settings: LoadSettings,
    context: LoadContext,
) -> ResultDocument {
    let mut doc = ResultDocument::new(
        env!("CARGO_PKG_VERSION"),
        context.invocation,
        context.environment,
        Settings {
            confidence: context.confidence,
            sesoi: context.sesoi,
            question: Default::default(),
            producer: ProducerSettings::Load(settings),
        },
    );
    doc.benchmarks = benchmarks;
    doc
}

/// Agents' results of one test combined: counts add, histograms add losslessly. `paths`
/// name the inputs, in order, for the record and for messages.
pub fn merged_document(
    docs: &[ResultDocument],
    paths: &[String],
    allow_disjoint: bool,
    invocation: Invocation,
) -> Result<ResultDocument, LoadError> {
    let mut names: Vec<String> = Vec::new();
    for (doc, path) in docs.iter().zip(paths) {
        if doc.benchmarks.iter().any(|b| b.load().is_none()) {
            return Err(CombineError::NotLoad {
                input: path.clone(),
            }
            .into());
        }
        for b in &doc.benchmarks {
            if !names.contains(&b.name) {
                names.push(b.name.clone());
            }
        }
    }
    let first = docs.first().ok_or(CombineError::Nothing)?;
    let mut merged = first.clone();
    merged.benchmarks.clear();
    merged.invocation = invocation;
    merged.settings.producer = ProducerSettings::Merged(MergedSettings {
        inputs: paths.to_vec(),
        agents: docs.iter().map(|d| d.settings.producer.clone()).collect(),
    });
    for name in &names {
        let (parts, files): (Vec<&LoadInfo>, Vec<String>) = docs
            .iter()
            .zip(paths)
            .filter_map(|(d, p)| Some((d.benchmark(name)?.load()?, p.clone())))
            .unzip();
        let m = merge_load(&parts, &files, allow_disjoint).map_err(|e| LoadError::In {
            benchmark: name.clone(),
            error: Box::new(e),
        })?;
        let mut b = Benchmark::new(name.clone(), BenchmarkKind::Load);
        b.parameters
            .insert("agents".into(), parts.len().to_string());
        b.set_load(m.info);
        b.diagnostics = m.notes;
        b.diagnostics
            .extend(plumb_analysis::load_checks::merged::targets(&names));
        merged.benchmarks.push(b);
    }
    Ok(merged)
}
