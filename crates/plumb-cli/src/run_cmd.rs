//! The `plumb run` subcommand: its options' plan (plumb-command's `RunOptions`), the
//! runner, the report and the exit code.
use crate::args::RunArgs;
use crate::exit::{CliError, Outcome};
use crate::export;
use crate::progress::Bar;
use plumb_analysis::{analyse_document, AnalysisConfig};
use plumb_changes::{run_until_settled, ChangesError};
use plumb_command::{command_settings, produce, FakeSpawner, ProcessSpawner, RunContext, RunPlan};
use plumb_model::{ProducerSettings, ResultDocument, RunStatus, Settings};
use plumb_report::{commands_counting, render_terminal_at, Detail};
use std::sync::atomic::AtomicBool;

pub fn run(a: RunArgs) -> Result<Outcome, CliError> {
    let (mut plan, baseline) = a.plan.plan()?;
    let names: Vec<&str> = plan.commands.iter().map(|c| c.name.as_str()).collect();
    let workload = plumb_env::workload_for_run(a.workload.as_deref(), &names)?;
    let targets = export::targets_of(&a.exports);
    export::check(&targets)?;
    let history = crate::store::saver(&a.save)?;
    let session = crate::session::stop_on_signals()?;
    let how = context(&a, &plan, baseline);
    if let Some(how_counted) = commands_counting(&a.counting, &how.environment, false)? {
        for line in &how_counted.notices {
            eprintln!("plumb: {line}");
        }
        plan.counters = true;
        plan.simulation = how_counted.simulation;
    }
    let mut doc = measure(&a, plan, how, &session.stop)?;
    if let Some(w) = &workload {
        w.record_on(&mut doc.benchmarks);
    }
    if let RunStatus::Interrupted { signal } = &mut doc.status {
        *signal = Some(session.signal_name());
    }
    // The raw samples reach disk before anything else can go wrong (analysis, a closed
    // stdout); the analysed result overwrites them below.
    export::save_early(&targets, &doc)?;
    analyse_document(
        &mut doc,
        &AnalysisConfig {
            drop_upper_outliers: a.drop_outliers,
            question: a.question.unwrap_or_default(),
            question_given: a.question.is_some(),
            ..AnalysisConfig::new(a.confidence, a.sesoi)
        },
    );
    let (given, here) = (a.save.history.as_deref(), std::env::current_dir()?);
    if let Err(e) = plumb_changes::between_runs_in_history(&mut doc, given, &here) {
        eprintln!("plumb: the history was not read for the intervals between runs: {e}");
    }
    if let RunStatus::Failed { message } = &doc.status {
        eprintln!("plumb: error: {message}");
    }
    // The report's own failure (a full stdout) is told after the exports are written.
    let mut printed = Ok(());
    if doc.benchmarks.iter().any(|b| !b.samples.is_empty()) {
        let report = render_terminal_at(&doc, Detail::verbose(a.verbose));
        printed = export::print_report(&targets, &report);
    } else {
        let stop =
            matches!(doc.status, RunStatus::Interrupted { .. }).then(|| session.signal_name());
        eprintln!("{}", plumb_report::nothing_measured(&doc, stop.as_deref()));
    }
    export::write_all(&targets, &doc)?;
    crate::store::keep(history, &doc, &targets)?;
    printed?;
    Ok(match doc.status {
        RunStatus::Complete => Outcome::Done,
        RunStatus::Interrupted { .. } => session.stopped(),
        RunStatus::Failed { .. } => Outcome::Failed,
    })
}

/// The commands measured, for a fixed budget or until the verdict settles (with a progress
/// bar, through the fake spawner for plumb's own tests).
fn measure(
    a: &RunArgs,
    plan: RunPlan,
    how: RunContext,
    stop: &AtomicBool,
) -> Result<ResultDocument, ChangesError> {
    let mut bar = Bar::new(plan.commands.len(), !a.no_progress);
    let mut fake = FakeSpawner::new();
    let spawner: &mut dyn plumb_command::Spawner = if a.debug_fake_runs {
        &mut fake
    } else {
        &mut ProcessSpawner
    };
    let question = a.question.unwrap_or_default();
    let produced = match a.plan.until_settled() {
        Some(u) => run_until_settled(plan, how, (&u, question), (spawner, &mut bar), stop),
        None => produce(&plan, how, spawner, &mut bar, stop).map_err(Into::into),
    };
    bar.finish();
    produced
}

/// The run's settings, machine record and command line.
fn context(a: &RunArgs, plan: &RunPlan, baseline: usize) -> RunContext {
    RunContext {
        settings: Settings {
            confidence: a.confidence,
            sesoi: a.sesoi,
            question: a.question.unwrap_or_default(),
            producer: ProducerSettings::Commands(command_settings(plan, a.drop_outliers)),
        },
        // A fake run's machine is empty: nothing about this one may vary its output.
        environment: if a.debug_fake_runs {
            plumb_model::Environment::default()
        } else {
            plumb_env::collect()
        },
        invocation: plumb_model::Invocation::current(),
        baseline,
    }
}
