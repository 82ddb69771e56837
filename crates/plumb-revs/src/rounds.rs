//! Two built revisions' command measured against each other, for `plumb revs` and history
//! confirmation: plumb-command's `produce_settled` (a trial run of each side, then
//! interleaved rounds until the sequential verdict the caller supplies settles) in each
//! side's worktree, the revisions recorded beside its rounds.
use crate::{RevsError, Side};
use plumb_command::{
    command_settings, pair_runs, produce_settled, trial, CommandSpec, Order, OutputPolicy,
    PairingAsked, Progress, RunContext, RunCount, RunPlan, RunRecord, Spawner, Trial,
};
use plumb_counters::plan::Counting;
use plumb_model::quantity::{Confidence, Duration, Fraction};
use plumb_model::{Environment, ProducerSettings, ResultDocument, Revisions, Settings, SettleWith};
use std::sync::atomic::AtomicBool;

/// How the two sides are measured.
#[derive(Debug, Clone)]
pub struct Measure {
    /// The command, run in each side's worktree (`sh -c` words joined).
    pub command: String,
    pub prepare: Option<String>,
    pub warmup: u64,
    /// Runs of each side a round; from the trial run's time when not given.
    pub runs_per_round: Option<u64>,
    pub max_time: Option<Duration>,
    pub confidence: Confidence,
    pub sesoi: Fraction,
    /// The order of each round's runs.
    pub seed: u64,
    /// With --counters: the plan the caller decided.
    pub counting: Option<Counting>,
    /// How each pair's two runs are made (`--pairing`).
    pub pairing: PairingAsked,
    /// The build command run in each worktree, recorded.
    pub build: Option<String>,
}

fn spec(side: &Side, m: &Measure) -> CommandSpec {
    CommandSpec {
        name: side.rev.label(),
        prepare: m.prepare.clone(),
        dir: Some(side.checkout.dir.clone()),
        ..CommandSpec::new(&m.command)
    }
}

/// One run of each side alone (plumb-command's `trial`): a command failing on one side is
/// said as such, with the worktree it failed in; the runs per round and the two trial
/// runs, `None` when a stop came.
fn runs_per_round(
    sides: &[Side; 2],
    m: &Measure,
    spawner: &mut dyn Spawner,
    stop: &AtomicBool,
) -> Result<Option<(u64, [RunRecord; 2])>, RevsError> {
    let specs = [spec(&sides[0], m), spec(&sides[1], m)];
    match trial(&specs, m.runs_per_round, spawner, stop).map_err(RevsError::Run)? {
        Trial::RunsPerRound(n, records) => Ok(Some((n, records))),
        Trial::Stopped => Ok(None),
        Trial::Failed(failed) => Err(RevsError::CommandFails {
            only_one: failed.len() == 1,
            failures: (failed.into_iter())
                .map(|(i, message)| {
                    format!(
                        "in {}'s worktree ({}): {}",
                        ["A", "B"][i],
                        sides[i].rev.label(),
                        // plumb run's advice; plumb revs has no such option.
                        message.replace(" (use --ignore-failure to benchmark it anyway)", "")
                    )
                })
                .collect(),
        }),
    }
}

/// The run's settings and machine record.
fn context(plan: &RunPlan, m: &Measure, environment: Environment) -> RunContext {
    RunContext {
        settings: Settings {
            confidence: m.confidence,
            sesoi: m.sesoi,
            question: Default::default(),
            producer: ProducerSettings::Commands(command_settings(plan, false)),
        },
        environment,
        invocation: plumb_model::Invocation::current(),
        baseline: 0,
    }
}

/// Measures the two sides' command through `spawner` on the machine `environment`
/// describes (read by the caller, once, just before: its counting plan reads it too); the
/// document holds both benchmarks and the revisions record with the looks of the verdict
/// `settle_with` made (not yet analysed). `None` when stopped before the first round.
pub fn measure(
    sides: &[Side; 2],
    m: &Measure,
    environment: Environment,
    settle_with: SettleWith,
    (spawner, progress): (&mut dyn Spawner, &mut dyn Progress),
    stop: &AtomicBool,
) -> Result<Option<ResultDocument>, RevsError> {
    let Some((per_round, trial)) = runs_per_round(sides, m, spawner, stop)? else {
        return Ok(None);
    };
    let mut plan = RunPlan {
        commands: vec![spec(&sides[0], m), spec(&sides[1], m)],
        warmup: m.warmup,
        order: Order::Shuffle { seed: m.seed },
        output: OutputPolicy::Discard,
        ..RunPlan::of(&[], RunCount::Fixed(1))
    };
    if let Some(counting) = &m.counting {
        plan.counters = true;
        plan.simulation = counting.simulation.clone();
    }
    let note = pair_runs(&mut plan, m.pairing, &trial, true);
    let how = context(&plan, m, environment);
    let judging = (settle_with, m.confidence.alpha(), per_round);
    let (mut doc, mut rounds) =
        produce_settled(plan, how, judging, m.max_time, (spawner, progress), stop)
            .map_err(RevsError::Run)?;
    rounds.design.pairing_note = note;
    doc.revisions = Some(Revisions {
        base: sides[0].revision(),
        new: sides[1].revision(),
        build: m.build.clone(),
        rounds,
    });
    Ok(Some(doc))
}

#[cfg(test)]
mod tests;
