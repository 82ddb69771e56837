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
use plumb_model::{Ending, Pairing, ResultDocument, SequentialRounds, Settle, SettleWith};
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
    pub pairing: PairingAsked,
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
    /// Runs of each side a round (the given number, else from the slower side's time),
    /// and the two trial runs, which the pairing is chosen from.
    RunsPerRound(u64, [RunRecord; 2]),
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
    let mut records = [RunRecord::EMPTY; 2];
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
            Status::Complete => records[i] = out.measured[0].samples[0],
        }
    }
    if !failures.is_empty() {
        return Ok(Trial::Failed(failures));
    }
    if let Some(n) = runs_per_round {
        return Ok(Trial::RunsPerRound(n, records));
    }
    let slowest = records.iter().map(|r| r.wall.to_std()).max();
    let slowest = slowest.unwrap_or_default().max(Duration::from_micros(1));
    let n = ROUND_TARGET.as_nanos().div_ceil(slowest.as_nanos()) as u64;
    Ok(Trial::RunsPerRound(
        n.clamp(MIN_RUNS_PER_ROUND, MAX_RUNS_PER_ROUND),
        records,
    ))
}

/// How the two runs of each pair are made, as asked (`--pairing`; with feature `cli`,
/// its values as clap lists them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum PairingAsked {
    /// One after the other, in random order within each round.
    Interleaved,
    /// At the same time, each side pinned to a CPU of its own, where two are free and
    /// each side uses one.
    Duet,
    /// Chosen from the trial runs (`choose_pairing`).
    Auto,
}

/// A side whose trial run kept more than this many CPUs busy on average (its CPU time
/// over its wall time) would compete with the other side for CPUs in a duet.
const ONE_CPU: f64 = 1.2;

/// `plan`'s rounds paired as `asked` and the trial runs allow (`choose_pairing` on the
/// CPUs free here): its order made a duet when one is chosen; why the pairing is not the
/// one asked, or what it leaves out. A duet cannot keep per-run counters (the kernel
/// counts every child at once): with `counters_give_way` they are dropped and that is
/// said (plumb revs, which counts mostly for its simulation, kept apart); without, the
/// rounds stay interleaved (`plumb run --counters --until-settled`).
pub fn pair_runs(
    plan: &mut RunPlan,
    asked: PairingAsked,
    trial: &[RunRecord; 2],
    counters_give_way: bool,
) -> Option<String> {
    if plan.counters && !counters_give_way {
        return (asked != PairingAsked::Interleaved).then(|| {
            "interleaved: --counters counts every child at once, and a duet's two would be one"
                .into()
        });
    }
    let (pairing, note) = choose_pairing(asked, trial, crate::two_cpus());
    let Pairing::Duet { cpus } = pairing else {
        return note;
    };
    plan.order = crate::Order::Duet { cpus };
    if !plan.counters {
        return None;
    }
    plan.counters = false;
    Some(
        "the kernel's per-run counters are not kept: in a duet they would count both sides as one"
            .into(),
    )
}

/// The pairing for `asked`, given the trial runs and the two CPUs free here (`None` for
/// one), with why it is not the one asked when it is not. A duet needs two CPUs and
/// sides that use one each.
fn choose_pairing(
    asked: PairingAsked,
    trial: &[RunRecord; 2],
    cpus: Option<[usize; 2]>,
) -> (Pairing, Option<String>) {
    if asked == PairingAsked::Interleaved {
        return (Pairing::Interleaved, None);
    }
    let Some(cpus) = cpus else {
        let why = "interleaved: a duet needs two CPUs, and one is allowed here";
        return (Pairing::Interleaved, Some(why.into()));
    };
    let share = |r: &RunRecord| {
        let cpu = (r.user + r.sys).as_nanos_f64();
        cpu / r.wall.as_nanos_f64().max(1.0)
    };
    if let Some(side) = (0..2).find(|&i| share(&trial[i]) > ONE_CPU) {
        let why = format!(
            "interleaved: {} kept {:.1} CPUs busy in its trial run, and two at once would compete for this machine's CPUs",
            ["A", "B"][side],
            share(&trial[side])
        );
        return (Pairing::Interleaved, Some(why));
    }
    (Pairing::Duet { cpus }, None)
}

/// Asked after every round: settled, or past the time cap.
struct Judge {
    settling: Box<dyn Settle>,
    deadline: Option<Instant>,
    ended: Option<Ending>,
    /// Runs combined (geometric mean) into each "run" the settling sees: a duet's cycle
    /// (`duet::DUET_CYCLE`), else 1.
    cycle: usize,
}

/// Each whole cycle of `s`'s wall times as its geometric mean; a cycle of one is the run's
/// own time.
fn cycle_means(s: &[RunRecord], cycle: usize) -> Vec<f64> {
    if cycle == 1 {
        return s.iter().map(|r| r.wall.as_nanos_f64()).collect();
    }
    let log_mean =
        |c: &[RunRecord]| c.iter().map(|r| r.wall.as_nanos_f64().ln()).sum::<f64>() / cycle as f64;
    s.chunks_exact(cycle).map(|c| log_mean(c).exp()).collect()
}

impl Until for Judge {
    fn settled(&mut self, samples: &[&[RunRecord]]) -> bool {
        let wall = |s: &[RunRecord]| cycle_means(s, self.cycle);
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
    mut how: RunContext,
    (settle_with, alpha, per_round): (SettleWith, f64, u64),
    max_time: Option<plumb_model::quantity::Duration>,
    (spawner, progress): (&mut dyn Spawner, &mut dyn Progress),
    stop: &AtomicBool,
) -> Result<(ResultDocument, SequentialRounds), RunError> {
    let (pairing, cycle) = match plan.order {
        crate::Order::Duet { cpus } => (Pairing::Duet { cpus }, crate::duet::DUET_CYCLE),
        _ => (Pairing::Interleaved, 1),
    };
    // A duet's round is whole cycles; the settling sees one value a cycle.
    let per_round = per_round.div_ceil(cycle) * cycle;
    let settling = settle_with(alpha, (per_round / cycle) as usize);
    plan.runs = RunCount::Fixed(settling.max_rounds() as u64 * per_round);
    let mut judge = Judge {
        deadline: max_time.map(|t| Instant::now() + t.to_std()),
        settling,
        ended: None,
        cycle: cycle as usize,
    };
    // The settings say the order the rounds ran in: a caller's context may predate its
    // pairing (`pair_runs`).
    if let plumb_model::ProducerSettings::Commands(c) = &mut how.settings.producer {
        (c.order, c.seed, c.duet_cpus) = crate::document::order_settings(plan.order);
    }
    let doc = produce_until(&plan, how, spawner, (progress, Some(&mut judge)), stop)?;
    let ended = match (&doc.status, judge.ended) {
        (plumb_model::RunStatus::Complete, Some(e)) => e,
        (plumb_model::RunStatus::Complete, None) => Ending::MaxRounds,
        _ => Ending::Stopped,
    };
    let mut design = judge.settling.record();
    design.max_time = max_time;
    design.pairing = pairing;
    design.runs_per_round = per_round;
    let rounds = SequentialRounds {
        design,
        looks: judge.settling.looks().to_vec(),
        benchmarks: Vec::new(),
        ended,
    };
    Ok((doc, rounds))
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::quantity::Duration as Span;

    /// A trial run of `wall_ms` that kept `cpus` CPUs busy on average.
    fn ran(wall_ms: u64, cpus: f64) -> RunRecord {
        let wall = Span::from_nanos(wall_ms * 1_000_000);
        RunRecord {
            wall,
            user: Span::from_nanos_f64(wall.as_nanos_f64() * cpus),
            ..RunRecord::EMPTY
        }
    }

    #[test]
    fn a_duet_where_two_cpus_are_free_and_each_side_uses_one() {
        let single = [ran(10, 0.98), ran(10, 0.05)];
        let two = Some([0, 1]);
        let duet = Pairing::Duet { cpus: [0, 1] };
        assert_eq!(
            choose_pairing(PairingAsked::Duet, &single, two),
            (duet, None)
        );
        assert_eq!(
            choose_pairing(PairingAsked::Auto, &single, two),
            (duet, None)
        );
        assert_eq!(
            choose_pairing(PairingAsked::Interleaved, &single, two),
            (Pairing::Interleaved, None)
        );
        let (pairing, why) = choose_pairing(PairingAsked::Duet, &single, None);
        assert_eq!(pairing, Pairing::Interleaved);
        assert!(why.unwrap().contains("one is allowed here"));
        let threaded = [ran(10, 1.0), ran(10, 1.9)];
        let (pairing, why) = choose_pairing(PairingAsked::Duet, &threaded, two);
        assert_eq!(pairing, Pairing::Interleaved);
        assert_eq!(
            why.unwrap(),
            "interleaved: B kept 1.9 CPUs busy in its trial run, and two at once would compete for this machine's CPUs"
        );
    }
}
