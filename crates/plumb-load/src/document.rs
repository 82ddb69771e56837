//! The load producer's document of one load test (agents' results merged are
//! plumb-loadtest's, which asks the analysis whether they make one test).

use crate::http::LoadReport;
use crate::{join_runs, model, LoadError};
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{
    Benchmark, BenchmarkKind, Environment, Invocation, LoadInfo, LoadMode, LoadSettings,
    ProducerSettings, ResultDocument, Settings,
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
