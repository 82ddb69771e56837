//! The command producer's result: it runs the plan and assembles the document itself, so
//! the CLI only parses, calls, analyses and renders.

use crate::runner::{run_until, Counts, Measurements, Progress, RunError, Status, Until};
use crate::simulate::simulate_commands;
use crate::spawner::{RunRecord, Spawner};
use crate::{Order, OutputPolicy, RunCount, RunPlan};
use plumb_counters::CounterEvent;
use plumb_model::quantity::{ByteSize, Duration};
use plumb_model::{
    Benchmark, BenchmarkKind, CommandSettings, Correction, Environment, Invocation, Metric,
    MetricInfo, ResultDocument, RoundOrder, RunStatus, Samples, Settings, Source,
};
use std::sync::atomic::{AtomicBool, Ordering};

/// What `produce` needs besides the plan: how the result will be judged, where it ran.
pub struct RunContext {
    pub settings: Settings,
    pub environment: Environment,
    pub invocation: Invocation,
    /// Index of the baseline among the plan's commands.
    pub baseline: usize,
}

/// The record of a plan's settings, for the result document.
/// An order as the settings record it: its kind, a shuffle's seed, a duet's CPUs.
pub(crate) fn order_settings(order: Order) -> (RoundOrder, Option<u64>, Option<[usize; 2]>) {
    match order {
        Order::Shuffle { seed } => (RoundOrder::Shuffle, Some(seed), None),
        Order::RoundRobin => (RoundOrder::RoundRobin, None, None),
        Order::Duet { cpus } => (RoundOrder::Duet, None, Some(cpus)),
    }
}

pub fn command_settings(plan: &RunPlan, drop_outliers: bool) -> CommandSettings {
    let (runs, min_runs, max_runs, min_time, max_time) = match plan.runs {
        RunCount::Fixed(n) => (Some(n), n, Some(n), Duration::ZERO, None),
        RunCount::Adaptive {
            min_runs,
            max_runs,
            min_time,
            max_time,
        } => (
            None,
            min_runs,
            max_runs,
            min_time.into(),
            max_time.map(Duration::from),
        ),
    };
    let (order, seed, duet_cpus) = order_settings(plan.order);
    CommandSettings {
        warmup: plan.warmup,
        runs,
        min_runs,
        max_runs,
        min_time,
        max_time,
        order,
        seed,
        duet_cpus,
        shell: plan.shell.clone(),
        output: match &plan.output {
            OutputPolicy::Discard => "null".into(),
            OutputPolicy::Inherit => "inherit".into(),
            OutputPolicy::File(p) => p.display().to_string(),
        },
        ignore_failure: plan.ignore_failure,
        drop_outliers,
    }
}

/// Runs `plan` and returns its document, unanalysed: every run's raw metrics, the shell
/// correction, and how the run ended (complete, interrupted, failed — what was measured
/// before a stop is kept).
pub fn produce(
    plan: &RunPlan,
    how: RunContext,
    spawner: &mut dyn Spawner,
    progress: &mut dyn Progress,
    stop: &AtomicBool,
) -> Result<ResultDocument, RunError> {
    produce_until(plan, how, spawner, (progress, None), stop)
}

/// `produce`, asking `until` (when given) after each measured round whether to stop there.
pub fn produce_until(
    plan: &RunPlan,
    how: RunContext,
    spawner: &mut dyn Spawner,
    (progress, until): (&mut dyn Progress, Option<&mut dyn Until>),
    stop: &AtomicBool,
) -> Result<ResultDocument, RunError> {
    let outcome = run_until(plan, spawner, progress, until, stop)?;
    let mut simulated = match &plan.simulation {
        Some(sim) => {
            let complete = outcome.status == Status::Complete;
            simulate_commands(plan, sim, &outcome.measured, complete, progress, stop)
        }
        None => Vec::new(),
    }
    .into_iter();
    let mut doc = ResultDocument::new(
        env!("CARGO_PKG_VERSION"),
        how.invocation,
        how.environment,
        how.settings,
    );
    let correction = shell_correction(plan.shell.as_deref(), &outcome);
    for (i, m) in outcome.measured.into_iter().enumerate() {
        let operations = RunPlan::operations(&m.spec).unwrap_or(1);
        let working_set = RunPlan::working_set(&m.spec).ok().flatten().map(ByteSize);
        let mut b = Benchmark::new(m.spec.name, BenchmarkKind::Command);
        b.working_set = working_set;
        b.series = m.spec.series;
        b.set_command(m.spec.command);
        b.parameters = m.spec.parameters;
        b.baseline = i == how.baseline;
        for metric in RunRecord::METRICS {
            b.metrics
                .insert(metric.clone(), MetricInfo::measured(&metric));
        }
        let counted = counted_in_every_run(&m.samples, &m.counted);
        for metric in counted.first().into_iter().flatten().map(|(m, _)| m) {
            let source = CounterEvent::of_metric(metric)
                .map_or(Source::SoftwareCounter, CounterEvent::source);
            b.metrics
                .insert(metric.clone(), MetricInfo::known(metric, source));
        }
        b.warmup = samples(&m.warmup, &[], operations);
        b.samples = samples(&m.samples, &counted, operations);
        b.simulated = simulated.next();
        b.corrections.extend(correction.clone());
        doc.benchmarks.push(b);
    }
    doc.status = match outcome.status {
        // Stopped during the simulations: the timed runs are whole, the run is not.
        Status::Complete if stop.load(Ordering::Relaxed) => RunStatus::Interrupted { signal: None },
        Status::Complete => RunStatus::Complete,
        Status::Interrupted => RunStatus::Interrupted { signal: None },
        Status::Failed { command, message } => RunStatus::Failed {
            message: format!("benchmark {command:?}: {message}"),
        },
    };
    Ok(doc)
}

fn samples(runs: &[RunRecord], counted: &[Counts], operations: u64) -> Samples {
    let mut s = Samples::default();
    for (i, r) in runs.iter().enumerate() {
        let mut values = r.values().to_vec();
        values.extend(counted.get(i).into_iter().flatten().cloned());
        s.push_run(operations, &values, r.exit);
    }
    s
}

/// The counters every measured run has a value for (a column of the samples needs one in
/// each row), per run; none when a run went uncounted.
fn counted_in_every_run(runs: &[RunRecord], counted: &[Counts]) -> Vec<Counts> {
    if counted.len() != runs.len() || counted.is_empty() {
        return Vec::new();
    }
    let everywhere: Vec<Metric> = counted[0]
        .iter()
        .map(|(m, _)| m.clone())
        .filter(|m| counted.iter().all(|run| run.iter().any(|(n, _)| n == m)))
        .collect();
    counted
        .iter()
        .map(|run| {
            run.iter()
                .filter(|(m, _)| everywhere.contains(m))
                .cloned()
                .collect()
        })
        .collect()
}

/// Mean start-up of the empty shell and its standard error; with fewer than two samples
/// (an interrupted run) there is nothing honest to subtract.
fn shell_correction(shell: Option<&str>, outcome: &Measurements) -> Option<Correction> {
    let shell = shell?;
    let xs: Vec<f64> = outcome
        .shell_samples
        .iter()
        .map(|s| s.wall.as_nanos_f64())
        .collect();
    Correction::estimated(
        Metric::WallTime,
        &xs,
        format!(
            "start-up of `{shell} -c ''`, measured in the same rounds ({} runs)",
            xs.len()
        ),
    )
}
