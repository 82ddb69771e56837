//! One load test: each target's runs in turn (an agent of a coordinated test first waits
//! for its start, and says a run that cannot start to its coordinator), each target's
//! benchmark with the gates the analysis decides, the workload's designs, the status, a
//! second target compared with the first, and how the test ended.
use crate::gates::{attach_gates, ended, gates_of, Ended};
use crate::LoadTestError;
use plumb_analysis::{load_checks, load_comparison};
use plumb_load::agents::side::AgentSide;
use plumb_load::http::{LoadConfig, LoadReport};
use plumb_load::session::run_in_turn;
use plumb_load::{load_benchmarks, load_document, LoadContext};
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{
    Benchmark, Diagnostic, Invocation, LoadComparison, LoadSettings, ResultDocument, RunStatus,
    WorkloadFile,
};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What to run: each target's generator configuration and the settings its result
/// records (made from one source: `LoadConfig::planned`), and how it is judged.
pub struct LoadTest {
    pub targets: Vec<(LoadConfig, LoadSettings)>,
    pub repeat: u32,
    pub confidence: Confidence,
    pub sesoi: Fraction,
    /// The `--workload` file whose designs are recorded on the benchmarks and checked.
    pub workload: Option<WorkloadFile>,
    /// Kept on the result when the rate is above what the threads can send
    /// (`capacity_check`).
    pub capacity_note: Option<Diagnostic>,
    pub invocation: Invocation,
    /// Runs are announced (on a terminal, when there are several).
    pub announce: bool,
}

/// A test's result.
pub struct Tested {
    pub doc: ResultDocument,
    /// The second target against the first, percentile by percentile.
    pub comparison: Option<LoadComparison>,
    /// The first run of the first target (the only one when `--hgrm-dir` is allowed).
    pub first_run: Option<LoadReport>,
    pub ended: Ended,
    /// An agent's side, to send the result to its coordinator once it is written.
    pub agent: Option<AgentSide>,
}

/// Runs `test`; `stop` is raised by a signal named by `signal`. Notices go to `say`.
pub fn run(
    mut test: LoadTest,
    (stop, signal): (&Arc<AtomicBool>, &dyn Fn() -> String),
    mut agent: Option<AgentSide>,
    say: &mut dyn FnMut(String),
) -> Result<Tested, LoadTestError> {
    let environment = plumb_env::collect();
    let (mut reports, broke) = run_as_agent(
        &mut test.targets,
        (test.repeat, test.announce),
        stop,
        &mut agent,
        say,
    )?;
    let interrupted = reports.iter().flatten().any(|r| r.interrupted);
    if let Some(side) = &agent {
        side.shift(&mut reports);
        side.record(&mut test.targets[0].1);
    }
    let mut benchmarks = benchmarks_of(&mut test.targets, &reports, say)?;
    benchmarks[0].diagnostics.extend(test.capacity_note.take());
    let context = LoadContext {
        confidence: test.confidence,
        sesoi: test.sesoi,
        environment,
        invocation: test.invocation,
    };
    let mut doc = load_document(benchmarks, test.targets[0].1.clone(), context);
    // A load test's document is not analysed as a whole (its checks run per target
    // above), so its design findings are attached here.
    if let Some(w) = &test.workload {
        w.record_on(&mut doc.benchmarks);
    }
    plumb_analysis::attach_design_findings(&mut doc);
    if interrupted {
        doc.status = RunStatus::Interrupted {
            signal: Some(signal()),
        };
    } else if let Some(message) = broke {
        doc.status = RunStatus::Failed { message };
    }
    let comparison = compare_targets(&doc);
    let slower = comparison.as_ref().is_some_and(LoadComparison::any_slower);
    Ok(Tested {
        ended: ended(&doc, slower),
        first_run: reports
            .into_iter()
            .next()
            .and_then(|r| r.into_iter().next()),
        doc,
        comparison,
        agent,
    })
}

/// The runs; one agent of a coordinated test first waits for the start it is given, its
/// live counts go to the coordinator, and a test that cannot run is said to it.
fn run_as_agent(
    targets: &mut [(LoadConfig, LoadSettings)],
    (repeat, announce): (u32, bool),
    stop: &Arc<AtomicBool>,
    agent: &mut Option<AgentSide>,
    say: &mut dyn FnMut(String),
) -> Result<(Vec<Vec<LoadReport>>, Option<String>), LoadTestError> {
    if let Some(side) = agent {
        let start = side.await_start(stop, say);
        targets[0].0.start_at = Some(start.map_err(LoadTestError::NoStart)?);
    }
    let uplink = agent.as_ref().and_then(|s| s.feed());
    let configs: Vec<&LoadConfig> = targets.iter().map(|(c, _)| c).collect();
    let ran = run_in_turn(&configs, repeat, (stop, uplink), announce, say);
    if let Err(e) = &ran {
        if let Some(side) = agent.take() {
            side.fail(&e.to_string(), say);
        }
    }
    Ok(ran?)
}

/// Each target's benchmark from its runs, with its findings; a target's settings get
/// what its TLS handshake agreed.
fn benchmarks_of(
    targets: &mut [(LoadConfig, LoadSettings)],
    reports: &[Vec<LoadReport>],
    say: &mut dyn FnMut(String),
) -> Result<Vec<Benchmark>, LoadTestError> {
    let mut benchmarks = Vec::new();
    for ((config, settings), runs) in targets.iter_mut().zip(reports) {
        if runs.is_empty() {
            continue;
        }
        if let Some(agreed) = runs.iter().find_map(|r| r.tls.as_ref()) {
            settings.tls = Some(Box::new(config.tls.record(agreed)));
            if config.http2 && agreed.alpn.as_deref() != Some("h2") {
                say(format!(
                    "--http2 asked, but the server offered only {} by ALPN: measured over HTTP/1.1",
                    agreed.alpn.as_deref().unwrap_or("no protocol")
                ));
            }
        }
        let mut these = load_benchmarks(settings, runs)?;
        attach_gates(&mut these, gates_of(settings));
        these[0]
            .diagnostics
            .extend(load_checks::settings_checks(settings));
        benchmarks.extend(these);
    }
    Ok(benchmarks)
}

/// A second target compared with the first, percentile by percentile.
fn compare_targets(doc: &ResultDocument) -> Option<LoadComparison> {
    let [base, new] = doc.benchmarks.as_slice() else {
        return None;
    };
    let benchmark = format!("{} → {}", base.name, new.name);
    Some(load_comparison(
        benchmark,
        base.load()?,
        new.load()?,
        doc.settings.confidence,
        doc.settings.sesoi,
    ))
}
