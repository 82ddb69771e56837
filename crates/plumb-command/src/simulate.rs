//! Simulated counters of each command: one run under cachegrind after all the timed runs.
//! After, never between them: a simulation is a long CPU-bound process that would slow
//! the timed runs on a small machine, and Ctrl-C during it must not cost the timed
//! results. Each simulation is estimated first from the command's timed mean and is not
//! started when the estimate is over the budget.

use crate::runner::{Measured, Progress};
use crate::{RunPlan, SimulationPlan};
use plumb_counters::cachegrind::{self, VALGRIND_STARTUP};
use plumb_model::{Metric, SimulatedCounts};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How much slower a command runs under cachegrind (cache and branch simulation) before
/// one has been measured in this run; each simulation of a command of 50 ms or more then
/// updates it. `bench/simulated-counters.sh` measured ×28–×32 on a branchy C loop: this
/// first guess errs long, so a budget is not overrun by a surprise.
const FIRST_SLOWDOWN: f64 = 50.0;
/// The shortest timed run whose simulation updates the slowdown.
const LEARN_FROM: Duration = Duration::from_millis(50);

/// The simulated counts of each measured command, in order: `sim.runs` runs of each,
/// interleaved (each command once, then each again). A command that was not simulated
/// says why in `not_simulated`, and one whose later run failed keeps its earlier runs
/// and says how many; none is when the timed runs did not complete.
pub fn simulate_commands(
    plan: &RunPlan,
    sim: &SimulationPlan,
    measured: &[Measured],
    timed_complete: bool,
    progress: &mut dyn Progress,
    stop: &AtomicBool,
) -> Vec<SimulatedCounts> {
    let mut slowdown = FIRST_SLOWDOWN;
    let mut counts: Vec<SimulatedCounts> = (measured.iter())
        .map(|_| cachegrind::empty_counts(sim.tool(), &sim.geometry))
        .collect();
    for round in 0..sim.runs {
        for (m, counts) in measured.iter().zip(&mut counts) {
            if counts.not_simulated.is_some() {
                continue;
            }
            let result = match timed_complete {
                true => simulate_one(plan, sim, m, &mut slowdown, progress, stop),
                false => Err(NotSimulated::TimedRunsIncomplete),
            };
            match result {
                Ok((operations, run)) => {
                    let mut values = run.totals.values().to_vec();
                    values.push((Metric::WallTime, run.wall.as_nanos() as u64));
                    counts.samples.push(operations, &values);
                }
                Err(why) if round == 0 => counts.not_simulated = Some(why.to_string()),
                Err(why) => {
                    let runs = sim.runs;
                    counts.not_simulated = Some(format!("{round} of {runs} runs simulated; {why}"))
                }
            }
        }
    }
    counts
}

/// Why a command has no simulated counts, as its result says it.
#[derive(Debug)]
enum NotSimulated {
    TimedRunsIncomplete,
    Interrupted,
    InvalidCommand,
    NoTimedRun,
    /// The estimate (the slowdown times the timed run, plus start-up) is over the budget.
    OverBudget {
        estimate: Duration,
        slowdown: f64,
        timed: Duration,
        budget: Duration,
    },
    Failed(cachegrind::SimError),
}

impl std::fmt::Display for NotSimulated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use plumb_model::format::time;
        match self {
            NotSimulated::TimedRunsIncomplete => {
                f.write_str("not simulated: the timed runs did not complete")
            }
            NotSimulated::Interrupted => {
                f.write_str("not simulated: interrupted before its simulation")
            }
            NotSimulated::InvalidCommand => {
                f.write_str("not simulated: its command line is not valid")
            }
            NotSimulated::NoTimedRun => {
                f.write_str("not simulated: no timed run to estimate the simulation from")
            }
            NotSimulated::OverBudget {
                estimate,
                slowdown,
                timed,
                budget,
            } => write!(
                f,
                "not simulated: it would take about {} ({slowdown:.0}× its timed run of {}, plus valgrind's start-up), over the budget of {} (--sim-budget)",
                time(*estimate),
                time(*timed),
                // A setting: as the user writes it (`30s`).
                plumb_model::quantity::Duration::from(*budget)
            ),
            NotSimulated::Failed(e) => f.write_str(&e.not_simulated()),
        }
    }
}

fn simulate_one(
    plan: &RunPlan,
    sim: &SimulationPlan,
    m: &Measured,
    slowdown: &mut f64,
    progress: &mut dyn Progress,
    stop: &AtomicBool,
) -> Result<(u64, cachegrind::SimRun), NotSimulated> {
    if stop.load(Ordering::Relaxed) {
        return Err(NotSimulated::Interrupted);
    }
    let (Ok(argv), Ok(operations)) = (plan.argv(&m.spec), RunPlan::operations(&m.spec)) else {
        return Err(NotSimulated::InvalidCommand);
    };
    if m.samples.is_empty() {
        return Err(NotSimulated::NoTimedRun);
    }
    let timed = m
        .samples
        .iter()
        .map(|s| s.wall)
        .sum::<plumb_model::quantity::Duration>();
    let timed = timed.div_u64(m.samples.len() as u64).to_std();
    let estimate = VALGRIND_STARTUP + timed.mul_f64(*slowdown);
    if estimate > sim.budget {
        return Err(NotSimulated::OverBudget {
            estimate,
            slowdown: *slowdown,
            timed,
            budget: sim.budget,
        });
    }
    progress.simulating(&m.spec.name, estimate);
    // In the command's own directory: each side of `plumb revs` is its worktree's program.
    let program = (argv.as_slice(), m.spec.dir.as_deref());
    match cachegrind::simulate_in(program, &sim.geometry, sim.budget, stop) {
        Ok(run) => {
            // A short command's simulation is mostly valgrind's start-up: it says
            // nothing about the slowdown of real work.
            if timed >= LEARN_FROM {
                let own = run.wall.saturating_sub(VALGRIND_STARTUP).as_secs_f64();
                *slowdown = (own / timed.as_secs_f64()).max(1.0);
            }
            Ok((operations, run))
        }
        Err(e) => Err(NotSimulated::Failed(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spawner::RunRecord;
    use crate::{CommandSpec, RunCount};
    use plumb_counters::cachegrind::{Geometry, SimCache};
    use plumb_model::Exit;

    fn plan_for(budget: Duration) -> (RunPlan, SimulationPlan) {
        let cache = |size, ways| SimCache {
            size: plumb_model::quantity::ByteSize(size),
            ways,
            line_size: plumb_model::quantity::ByteSize(64),
        };
        let sim = SimulationPlan {
            geometry: Geometry {
                i1: cache(32 << 10, 8),
                d1: cache(32 << 10, 8),
                ll: cache(32 << 20, 16),
            },
            budget,
            valgrind: "valgrind-test".into(),
            runs: 1,
        };
        (RunPlan::of(&["true"], RunCount::Fixed(1)), sim)
    }

    fn measured(command: &str, operations: Option<&str>, wall_ns: u64) -> Measured {
        use plumb_model::quantity::{ByteSize, Duration};
        let mut spec = CommandSpec::new(command);
        spec.operations = operations.map(String::from);
        let run = RunRecord {
            wall: Duration::from_nanos(wall_ns),
            user: Duration::ZERO,
            sys: Duration::ZERO,
            peak_rss: ByteSize(0),
            exit: Exit::Code(0),
        };
        Measured {
            spec,
            warmup: Vec::new(),
            samples: vec![run; 3],
            counted: Vec::new(),
        }
    }

    /// Needs valgrind (.ci/run installs it).
    #[test]
    fn each_command_is_simulated_once_per_operation_or_says_why_not() {
        if cachegrind::valgrind_version().is_err() {
            plumb_testkit::skip("valgrind is not installed");
            return;
        }
        let (plan, sim) = plan_for(Duration::from_secs(30));
        let commands = [
            measured("sh -c 'exit 0'", Some("1000"), 1_000_000),
            measured("sleep 1", None, 1_000_000_000),
            measured("sh -c 'exit 0'", None, 1_000_000),
        ];
        let stop = AtomicBool::new(false);
        let counts = simulate_commands(&plan, &sim, &commands, true, &mut (), &stop);
        let first = &counts[0];
        assert_eq!(first.not_simulated, None);
        assert_eq!(first.samples.iterations(), [1000]);
        assert_eq!(
            first.metrics[&Metric::Instructions].source,
            plumb_model::Source::Simulated
        );
        let per_op = first.per_op(&Metric::Instructions)[0];
        let whole = counts[2].per_op(&Metric::Instructions)[0];
        assert_eq!(per_op * 1000.0, whole, "the same run, per operation");
        // `sleep 1` takes a second; at 50× it is estimated far over 30 s.
        let why = counts[1].not_simulated.as_deref().unwrap();
        assert!(why.contains("over the budget of 30s"), "{why}");
        assert!(counts[1].samples.is_empty());

        // Two runs each, interleaved: the same counts twice (a deterministic command).
        let twice = SimulationPlan {
            runs: 2,
            ..sim.clone()
        };
        let counts = simulate_commands(&plan, &twice, &commands[..1], true, &mut (), &stop);
        let instructions = counts[0].per_op(&Metric::Instructions);
        assert_eq!(instructions.len(), 2);
        assert_eq!(instructions[0], instructions[1]);

        stop.store(true, Ordering::Relaxed);
        let stopped = simulate_commands(&plan, &sim, &commands[..1], true, &mut (), &stop);
        assert_eq!(
            stopped[0].not_simulated.as_deref(),
            Some("not simulated: interrupted before its simulation")
        );
        let failed = simulate_commands(&plan, &sim, &commands[..1], false, &mut (), &stop);
        assert!(failed[0]
            .not_simulated
            .as_deref()
            .unwrap()
            .contains("did not complete"));
    }
}
