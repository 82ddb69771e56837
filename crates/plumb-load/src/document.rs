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
/// runs joined (`--repeat`) with each one kept. For a request mix: the whole first, then
/// each target's own (`load_benchmarks`).
pub fn load_benchmark(
    settings: &LoadSettings,
    reports: &[LoadReport],
) -> Result<Benchmark, LoadError> {
    let name = match &settings.mix {
        Some(mix) => format!("mix of {} targets ({})", mix.targets.len(), mix.file),
        None => format!("{} {}", settings.method, settings.url),
    };
    let runs: Vec<&LoadReport> = reports.iter().collect();
    // One agent of several offers its share of the whole test's rate.
    let share = settings.agents.map_or(1.0, |a| 1.0 / a.count.max(1) as f64);
    benchmark(settings, name, &runs, share)
}

/// The test's benchmarks: the one target's, or a mix's whole and then each target's
/// (named `METHOD URL`, its weight and share in its parameters).
pub fn load_benchmarks(
    settings: &LoadSettings,
    reports: &[LoadReport],
) -> Result<Vec<Benchmark>, LoadError> {
    let mut out = vec![load_benchmark(settings, reports)?];
    let Some(mix) = &settings.mix else {
        return Ok(out);
    };
    let total: u64 = mix.targets.iter().map(|t| t.weight).sum();
    for (k, entry) in mix.targets.iter().enumerate() {
        let runs: Vec<&LoadReport> = reports.iter().filter_map(|r| r.targets.get(k)).collect();
        if runs.is_empty() {
            continue;
        }
        let agent_share = settings.agents.map_or(1.0, |a| 1.0 / a.count.max(1) as f64);
        let share = agent_share * entry.weight as f64 / total as f64;
        let mut b = benchmark(settings, entry.name.clone(), &runs, share)?;
        b.parameters
            .insert("weight".into(), entry.weight.to_string());
        b.parameters.insert("line".into(), entry.line.to_string());
        out.push(b);
    }
    Ok(out)
}

/// A benchmark of `runs`, offered `share` of the test's rate.
fn benchmark(
    settings: &LoadSettings,
    name: String,
    runs: &[&LoadReport],
    share: f64,
) -> Result<Benchmark, LoadError> {
    let (mode, target_rate, concurrency) = match settings.mode {
        LoadMode::Open {
            rate,
            max_in_flight,
            ..
        } => (
            "open",
            Some(rate.per_second() * share),
            max_in_flight as usize,
        ),
        LoadMode::Closed { connections } => ("closed", None, connections as usize),
    };
    let mut b = Benchmark::new(name, BenchmarkKind::Load);
    if let Some(agent) = &settings.agent {
        b.parameters.insert("agent".into(), agent.clone());
    }
    let infos: Vec<LoadInfo> = runs
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
    let shares: Vec<Option<plumb_model::AgentShare>> = docs
        .iter()
        .map(|d| match &d.settings.producer {
            ProducerSettings::Load(s) => s.agents,
            _ => None,
        })
        .collect();
    let missing = plumb_analysis::load_checks::merged::agent_shares(&shares, paths)
        .map_err(CombineError::Shares)?;
    let mut merged = first.clone();
    merged.benchmarks.clear();
    merged.invocation = invocation;
    merged.settings.producer = ProducerSettings::Merged(MergedSettings {
        inputs: paths.to_vec(),
        agents: docs.iter().map(|d| d.settings.producer.clone()).collect(),
        coordination: None,
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
        b.diagnostics.extend(missing.clone());
        merged.benchmarks.push(b);
    }
    Ok(merged)
}
