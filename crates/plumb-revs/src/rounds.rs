//! Two built revisions' command measured against each other, for `plumb revs` and history
//! confirmation: one trial run of each (which side fails, and how many runs make a round),
//! then rounds of both interleaved through plumb-command's runner and `Spawner` seam until
//! the sequential verdict the caller supplies (`SettleWith`) settles, the cap of rounds or
//! the time cap is reached, or a stop signal comes.
use crate::{RevsError, Side};
use plumb_command::{
    command_settings, produce_until, run, CommandSpec, Order, OutputPolicy, Progress, RunContext,
    RunCount, RunPlan, RunRecord, Spawner, Status, Until,
};
use plumb_counters::plan::Counting;
use plumb_model::quantity::{Confidence, Duration, Fraction};
use plumb_model::{
    Ending, Environment, ProducerSettings, ResultDocument, Revisions, Settings, Settle, SettleWith,
};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

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
    /// The build command run in each worktree, recorded.
    pub build: Option<String>,
}

/// A round of one side takes about this long when the runs per round are not given, and
/// has at least `MIN_RUNS_PER_ROUND` runs: a round's median of pairs must outvote the pairs
/// a slow spell of the host splits (here about one run in seven ran 1.8× slower; with 10
/// pairs a round the rounds' spread fell to 1.2–1.8 %, from 6–16 % with 3 to 6).
const ROUND_TARGET: std::time::Duration = std::time::Duration::from_millis(300);
const MIN_RUNS_PER_ROUND: u64 = 5;
const MAX_RUNS_PER_ROUND: u64 = 50;

fn spec(side: &Side, m: &Measure) -> CommandSpec {
    CommandSpec {
        name: side.rev.label(),
        prepare: m.prepare.clone(),
        dir: Some(side.checkout.dir.clone()),
        ..CommandSpec::new(&m.command)
    }
}

/// One run of each side alone: a command failing on one side is said as such, and the
/// slower side's time sets the runs per round; 0 when a stop came.
fn trial(
    sides: &[Side; 2],
    m: &Measure,
    spawner: &mut dyn Spawner,
    stop: &AtomicBool,
) -> Result<u64, RevsError> {
    let mut times = Vec::new();
    let mut failures = Vec::new();
    for (role, side) in ["A", "B"].iter().zip(sides) {
        let plan = RunPlan {
            commands: vec![spec(side, m)],
            ..RunPlan::of(&[], RunCount::Fixed(1))
        };
        let out = run(&plan, spawner, &mut (), stop).map_err(RevsError::Run)?;
        match out.status {
            Status::Failed { message, .. } => failures.push(format!(
                "in {role}'s worktree ({}): {}",
                side.rev.label(),
                // plumb run's advice; plumb revs has no such option.
                message.replace(" (use --ignore-failure to benchmark it anyway)", "")
            )),
            Status::Interrupted => return Ok(0),
            Status::Complete => times.push(out.measured[0].samples[0].wall.to_std()),
        }
    }
    if !failures.is_empty() {
        return Err(RevsError::CommandFails {
            only_one: failures.len() == 1,
            failures,
        });
    }
    if let Some(n) = m.runs_per_round {
        return Ok(n);
    }
    let slowest = times
        .into_iter()
        .max()
        .unwrap_or_default()
        .max(std::time::Duration::from_micros(1));
    let n = ROUND_TARGET.as_nanos().div_ceil(slowest.as_nanos()) as u64;
    Ok(n.clamp(MIN_RUNS_PER_ROUND, MAX_RUNS_PER_ROUND))
}

/// Asked after every round: settled, or past the time cap.
struct Judge {
    settling: Box<dyn Settle>,
    deadline: Option<Instant>,
    ended: Option<Ending>,
}

impl Until for Judge {
    fn settled(&mut self, samples: &[&[RunRecord]]) -> bool {
        let wall = |s: &[RunRecord]| s.iter().map(|r| r.wall.as_nanos_f64()).collect::<Vec<_>>();
        if self.settling.after(&wall(samples[0]), &wall(samples[1])) {
            self.ended = Some(Ending::Settled);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.ended = Some(Ending::MaxTime);
        }
        self.ended.is_some()
    }
}

/// The run's settings and machine record; with counters, the plan's simulation set.
fn context(plan: &mut RunPlan, m: &Measure, environment: Environment) -> RunContext {
    if let Some(counting) = &m.counting {
        plan.counters = true;
        plan.simulation = counting.simulation.clone();
    }
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
    let per_round = trial(sides, m, spawner, stop)?;
    if per_round == 0 {
        return Ok(None);
    }
    let settling = settle_with(m.confidence.alpha(), per_round as usize);
    let mut plan = RunPlan {
        commands: vec![spec(&sides[0], m), spec(&sides[1], m)],
        warmup: m.warmup,
        order: Order::Shuffle { seed: m.seed },
        output: OutputPolicy::Discard,
        ..RunPlan::of(
            &[],
            RunCount::Fixed(settling.max_rounds() as u64 * per_round),
        )
    };
    let how = context(&mut plan, m, environment);
    let mut judge = Judge {
        deadline: m.max_time.map(|t| Instant::now() + t.to_std()),
        settling,
        ended: None,
    };
    let mut doc = produce_until(&plan, how, spawner, (progress, Some(&mut judge)), stop)
        .map_err(RevsError::Run)?;
    let ended = match (&doc.status, judge.ended) {
        (plumb_model::RunStatus::Complete, Some(e)) => e,
        (plumb_model::RunStatus::Complete, None) => Ending::MaxRounds,
        _ => Ending::Stopped,
    };
    let mut design = judge.settling.record();
    design.max_time = m.max_time;
    doc.revisions = Some(Revisions {
        base: sides[0].revision(),
        new: sides[1].revision(),
        build: m.build.clone(),
        design,
        looks: judge.settling.looks().to_vec(),
        benchmarks: Vec::new(),
        ended,
    });
    Ok(Some(doc))
}

#[cfg(test)]
mod tests;
