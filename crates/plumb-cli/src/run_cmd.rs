//! The `plumb run` subcommand: its options' plan (plumb-command's `RunOptions`), the
//! runner, the report and the exit code.
use crate::args::RunArgs;
use crate::exit::{CliError, Outcome};
use crate::export;
use crate::progress::Bar;
use plumb_analysis::{analyse_document, AnalysisConfig};
use plumb_command::{command_settings, produce, FakeSpawner, ProcessSpawner, RunContext, RunPlan};
use plumb_model::{ProducerSettings, ResultDocument, RunStatus, Settings};
use plumb_report::{counting_plan, render_terminal_at, Counted, Detail};

pub fn run(a: RunArgs) -> Result<Outcome, CliError> {
    let (mut plan, baseline) = a.plan.plan()?;
    let names: Vec<&str> = plan.commands.iter().map(|c| c.name.as_str()).collect();
    let workload = plumb_env::workload_for_run(a.workload.as_deref(), &names)?;
    let targets = export::targets_of(&a.exports);
    export::check(&targets)?;
    let history = crate::store::saver(&a.save)?;
    let session = crate::session::stop_on_signals()?;
    let how = context(&a, &plan, baseline);
    if let Some(mode) = a.counters {
        let budget = a.sim_budget.to_std();
        let how_counted = counting_plan(mode, &how.environment, budget, Counted::Commands)?;
        for line in &how_counted.notices {
            eprintln!("plumb: {line}");
        }
        plan.counters = true;
        plan.simulation = how_counted.simulation;
    }
    let mut bar = Bar::new(plan.commands.len(), !a.no_progress);
    let mut fake = FakeSpawner::new();
    let spawner: &mut dyn plumb_command::Spawner = if a.debug_fake_runs {
        &mut fake
    } else {
        &mut ProcessSpawner
    };
    let produced = produce(&plan, how, spawner, &mut bar, &session.stop);
    bar.finish();
    let mut doc = produced?;
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
    } else if matches!(doc.status, RunStatus::Interrupted { .. }) {
        eprintln!("{}", stopped_before_measuring(&doc, &session));
    } else {
        eprintln!("plumb: nothing was measured");
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

/// What a stop before the first measured run says. Warm-up is named only when there was
/// one: with --warmup 0 the stop cut the first measured run short.
fn stopped_before_measuring(doc: &ResultDocument, session: &crate::session::Session) -> String {
    let when = if doc.benchmarks.iter().any(|b| !b.warmup.is_empty()) {
        "before the first measured run (during warm-up)"
    } else {
        "before the first run ended"
    };
    format!(
        "plumb: stopped by {} {when}: nothing was measured",
        session.signal_name()
    )
}
