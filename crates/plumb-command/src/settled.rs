//! Two commands measured against each other until a sequential verdict settles (`plumb
//! run A B --until-settled`, and `plumb revs`' rounds of two revisions): one trial run of
//! each (a side that fails is said as such; the slower side's time sets the runs per
//! round), then rounds of both interleaved through the runner and the `Spawner` seam until
//! the verdict the caller supplies (`SettleWith`) settles, the cap of rounds or the time
//! cap is reached, or a stop signal comes.
use crate::PlanError;
use crate::{
    produce_until, run, CommandSpec, Progress, RunContext, RunCount, RunError, RunPlan, RunRecord,
    Spawner, Status, Until,
};
use plumb_model::{Ending, ResultDocument, SequentialRounds, Settle, SettleWith};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// A round of one side takes about this long when the runs per round are not given, and
/// has at least `MIN_RUNS_PER_ROUND` runs: a round's median of pairs must outvote the pairs
/// a slow spell of the host splits (here about one run in seven ran 1.8× slower; with 10
/// pairs a round the rounds' spread fell to 1.2–1.8 %, from 6–16 % with 3 to 6).
const ROUND_TARGET: Duration = Duration::from_millis(300);
pub const MIN_RUNS_PER_ROUND: u64 = 5;
const MAX_RUNS_PER_ROUND: u64 = 50;

/// `plumb run --until-settled`'s rounds: their cap, runs per round (else from a trial
/// run), and the time cap (`--max-time`).
#[derive(Debug, Clone, PartialEq)]
pub struct UntilSettled {
    pub max_rounds: u64,
    pub runs_per_round: Option<u64>,
    pub max_time: Option<plumb_model::quantity::Duration>,
}

/// A plan rounds can settle: two commands, run directly.
pub fn check(plan: &RunPlan) -> Result<(), PlanError> {
    if plan.commands.len() != 2 {
        return Err(PlanError::SettleTwo(plan.commands.len()));
    }
    if plan.shell.is_some() {
        return Err(PlanError::SettleShell);
    }
    Ok(())
}

/// What one trial run of each side found.
#[derive(Debug, Clone, PartialEq)]
pub enum Trial {
    /// Runs of each side a round: the given number, else from the slower side's time.
    RunsPerRound(u64),
    /// These sides (0 for A, 1 for B) failed, each with the runner's message.
    Failed(Vec<(usize, String)>),
    /// A stop signal came.
    Stopped,
}

/// One run of each side alone (through `spawner`), in order A then B.
pub fn trial(
    sides: &[CommandSpec; 2],
    runs_per_round: Option<u64>,
    spawner: &mut dyn Spawner,
    stop: &AtomicBool,
) -> Result<Trial, RunError> {
    let mut times = Vec::new();
    let mut failures = Vec::new();
    for (i, side) in sides.iter().enumerate() {
        let plan = RunPlan {
            commands: vec![side.clone()],
            ..RunPlan::of(&[], RunCount::Fixed(1))
        };
        let out = run(&plan, spawner, &mut (), stop)?;
        match out.status {
            Status::Failed { message, .. } => failures.push((i, message)),
            Status::Interrupted => return Ok(Trial::Stopped),
            Status::Complete => times.push(out.measured[0].samples[0].wall.to_std()),
        }
    }
    if !failures.is_empty() {
        return Ok(Trial::Failed(failures));
    }
    if let Some(n) = runs_per_round {
        return Ok(Trial::RunsPerRound(n));
    }
    let slowest = (times.into_iter().max().unwrap_or_default()).max(Duration::from_micros(1));
    let n = ROUND_TARGET.as_nanos().div_ceil(slowest.as_nanos()) as u64;
    Ok(Trial::RunsPerRound(
        n.clamp(MIN_RUNS_PER_ROUND, MAX_RUNS_PER_ROUND),
    ))
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

/// Measures `plan`'s two commands (A its first, B its second) in rounds of `per_round`
/// runs each until the verdict `settle_with` makes at `alpha` settles, its cap of rounds,
/// or `max_time`; the document (not yet analysed) and the rounds with every look.
pub fn produce_settled(
    mut plan: RunPlan,
    how: RunContext,
    (settle_with, alpha, per_round): (SettleWith, f64, u64),
    max_time: Option<plumb_model::quantity::Duration>,
    (spawner, progress): (&mut dyn Spawner, &mut dyn Progress),
    stop: &AtomicBool,
) -> Result<(ResultDocument, SequentialRounds), RunError> {
    let settling = settle_with(alpha, per_round as usize);
    plan.runs = RunCount::Fixed(settling.max_rounds() as u64 * per_round);
    let mut judge = Judge {
        deadline: max_time.map(|t| Instant::now() + t.to_std()),
        settling,
        ended: None,
    };
    let doc = produce_until(&plan, how, spawner, (progress, Some(&mut judge)), stop)?;
    let ended = match (&doc.status, judge.ended) {
        (plumb_model::RunStatus::Complete, Some(e)) => e,
        (plumb_model::RunStatus::Complete, None) => Ending::MaxRounds,
        _ => Ending::Stopped,
    };
    let mut design = judge.settling.record();
    design.max_time = max_time;
    let rounds = SequentialRounds {
        design,
        looks: judge.settling.looks().to_vec(),
        benchmarks: Vec::new(),
        ended,
    };
    Ok((doc, rounds))
}
