//! Simulated counters of in-process benchmarks, where the CPU has none: after all the
//! timed samples, each benchmark's routine runs under valgrind in a fresh process of
//! this bench binary (`--simulate-child N --exact NAME`), twice, N and 2N calls.
//!
//! Only the routine is counted, not the program's start nor the benchmark's setup.
//! valgrind 3.19 (Debian 12's) has no cachegrind client requests to start and stop
//! counting (3.22 added them), so the child runs under callgrind, which collects only
//! inside the functions named `untimed_region_*` (`--toggle-collect`) and what they
//! call, with the same cache and branch simulation as cachegrind. The region's fixed
//! cost (entering it) and its first, cold calls are the same in both runs and cancel in
//! the difference, which is N calls in steady state: per operation, what the timed
//! samples measured. Inputs of `iter_batched` are made before the region in both runs.

use crate::args::Args;
use crate::error::{system, BenchError};
use plumb_counters::cachegrind::{self, SimError, SimRun, Totals, VALGRIND_STARTUP};
use plumb_counters::plan::SimulationPlan;
use plumb_model::{Benchmark, Metric, SimulatedCounts};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The functions callgrind counts in (see `measure.rs`).
use plumb_model::bench_child::{
    read_region_time, BenchChild, ChildRun, UNTIMED_REGION_PATTERN as REGION,
};
/// How much slower a routine runs under callgrind with cache and branch simulation,
/// until one has been measured in this run (`bench/simulated-counters.sh` measures it).
const FIRST_SLOWDOWN: f64 = 100.0;
/// N is chosen so that N calls take about this long natively…
const REGION_NATIVE: Duration = Duration::from_millis(5);
/// … and at most this many, since `iter_batched` holds 2N inputs at once.
const MAX_CALLS: u64 = 50_000;
/// The shortest native run of the child whose simulation updates the slowdown.
const LEARN_FROM: Duration = Duration::from_millis(50);

/// Why a benchmark was not simulated: recorded in its `not_simulated`.
#[derive(Debug)]
enum NotSimulated {
    Interrupted,
    /// The two runs' estimate passes the budget.
    OverBudget {
        calls: u64,
        estimate: Duration,
        native: Duration,
        slowdown: f64,
        budget: Duration,
    },
    TempDir(String),
    Start {
        program: String,
        cause: String,
    },
    /// The routine failed outside the simulator.
    Failed {
        status: String,
        stderr: String,
    },
    /// valgrind's run failed, or was stopped: its own reason.
    Simulator(String),
}

impl std::fmt::Display for NotSimulated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use plumb_model::format::time;
        match self {
            NotSimulated::Interrupted => f.write_str("not simulated: interrupted before its simulation"),
            NotSimulated::OverBudget { calls, estimate, native, slowdown, budget } => write!(
                f,
                "not simulated: {calls} and {} calls would take about {} under callgrind ({slowdown:.0}× their native {}, plus valgrind's start-up), over the budget of {} (--sim-budget)",
                2 * calls,
                time(*estimate),
                time(*native),
                plumb_model::quantity::Duration::from(*budget)
            ),
            NotSimulated::TempDir(cause) => write!(f, "not simulated: cannot make a temporary directory: {cause}"),
            NotSimulated::Start { program, cause } => write!(f, "not simulated: cannot start {program}: {cause}"),
            NotSimulated::Failed { status, stderr } => write!(
                f,
                "not simulated: its routine failed outside the simulator ({status}): {stderr}"
            ),
            NotSimulated::Simulator(why) => f.write_str(why),
        }
    }
}

/// Simulates each measured benchmark of `benchmarks`; one that is not simulated says why
/// in its `not_simulated`. The harness's `stop` (Ctrl-C) stops the simulation in progress
/// and skips the rest; what was simulated is kept, and the timed results are written.
pub(crate) fn simulate_benchmarks(
    args: &Args,
    sim: &SimulationPlan,
    benchmarks: &mut [Benchmark],
    stop: &AtomicBool,
) -> Result<(), BenchError> {
    let exe = std::env::current_exe().map_err(system("cannot find this bench binary"))?;
    let mut slowdown = FIRST_SLOWDOWN;
    for b in benchmarks.iter_mut() {
        let failed = b.function().is_some_and(|f| f.failure.is_some());
        if failed || b.samples.is_empty() {
            continue;
        }
        let mut counts = cachegrind::empty_counts(sim.region_tool(), &sim.geometry);
        let ops_per_call = b.function().map_or(1, |f| f.ops_per_iter.max(1));
        let (per_call, largest_batch) = timed_calls(b, ops_per_call);
        let job = Job {
            exe: &exe,
            name: &b.name,
            calls: calls_for(per_call, largest_batch),
            ops_per_call,
        };
        match job.simulate(sim, &mut slowdown, stop, !args.quiet) {
            Ok(diff) => push(&mut counts, job.ops_per_call * job.calls, &diff),
            Err(why) => counts.not_simulated = Some(why.to_string()),
        }
        b.simulated = Some(counts);
    }
    Ok(())
}

/// The timed samples' mean time of one call of the routine, and the most calls one
/// sample made.
fn timed_calls(b: &Benchmark, ops_per_call: u64) -> (Duration, u64) {
    let wall: u64 = b
        .samples
        .values(&Metric::WallTime)
        .map_or(0, |v| v.iter().sum());
    let ops = b.samples.iterations();
    let per_op_ns = wall as f64 / ops.iter().sum::<u64>().max(1) as f64;
    let largest = ops.iter().max().map_or(1, |n| n / ops_per_call);
    (
        Duration::from_secs_f64(per_op_ns * ops_per_call as f64 / 1e9),
        largest,
    )
}

/// The second run beyond the first: N calls.
struct Difference {
    totals: Totals,
    /// How much longer the second run's region took: N calls, simulated.
    wall: Option<Duration>,
}

fn push(counts: &mut SimulatedCounts, operations: u64, diff: &Difference) {
    let mut values = diff.totals.values().to_vec();
    if let Some(wall) = diff.wall {
        values.push((Metric::WallTime, wall.as_nanos() as u64));
    }
    counts.samples.push(operations, &values);
}

/// One simulated run, and how long its region took (simulated), as the child timed it.
type Simulated = (SimRun, Duration);

struct Job<'a> {
    exe: &'a Path,
    name: &'a str,
    /// N.
    calls: u64,
    ops_per_call: u64,
}

impl Job<'_> {
    fn argv(&self, calls: u64, region_time: Option<&Path>) -> Vec<String> {
        let child = BenchChild {
            bench: self.name.to_string(),
            run: ChildRun::Calls(calls),
            region_time: region_time.map(Path::to_path_buf),
        };
        let mut argv = vec![self.exe.display().to_string()];
        argv.extend(child.args());
        argv
    }

    fn simulate(
        &self,
        sim: &SimulationPlan,
        slowdown: &mut f64,
        stop: &AtomicBool,
        progress: bool,
    ) -> Result<Difference, NotSimulated> {
        if stop.load(Ordering::Relaxed) {
            return Err(NotSimulated::Interrupted);
        }
        let calls = self.calls;
        // Natively first: the child's start and setup are unknown from the timed samples
        // and are simulated too (uncounted), and a child that fails fails fast here. The
        // run of 2N calls takes at most twice as long as the run of N.
        let native = self.run_natively(calls)? * 3;
        let estimate = VALGRIND_STARTUP * 2 + native.mul_f64(*slowdown);
        if estimate > sim.budget {
            return Err(NotSimulated::OverBudget {
                calls,
                estimate,
                native,
                slowdown: *slowdown,
                budget: sim.budget,
            });
        }
        if progress {
            eprintln!(
                "  {}: simulating {calls} and {} calls (about {}; Ctrl-C keeps the timed results)",
                self.name,
                2 * calls,
                plumb_model::format::time(estimate.max(std::time::Duration::from_secs(1)))
            );
        }
        let ((first, first_region), (second, second_region)) =
            self.simulate_pair(sim, calls, stop)?;
        if native >= LEARN_FROM {
            let own = (first.wall + second.wall).saturating_sub(VALGRIND_STARTUP * 2);
            *slowdown = (own.as_secs_f64() / native.as_secs_f64()).max(1.0);
        }
        Ok(Difference {
            totals: second.totals.beyond(&first.totals),
            wall: second_region
                .checked_sub(first_region)
                .filter(|w| !w.is_zero()),
        })
    }

    fn simulate_pair(
        &self,
        sim: &SimulationPlan,
        calls: u64,
        stop: &AtomicBool,
    ) -> Result<(Simulated, Simulated), NotSimulated> {
        let started = Instant::now();
        let dir =
            crate::scratch::ScratchDir::new().map_err(|e| NotSimulated::TempDir(e.to_string()))?;
        let run = |n: u64| {
            let left = sim.budget.saturating_sub(started.elapsed());
            let region_time = dir.path().join(format!("region-{n}"));
            let argv = self.argv(n, Some(&region_time));
            // Each run is stopped at what is left of the budget; the result names the
            // budget itself.
            let run = cachegrind::simulate_region(&argv, &sim.geometry, REGION, left, stop)
                .map_err(|e| match e {
                    SimError::OverBudget(_) => SimError::OverBudget(sim.budget),
                    other => other,
                })
                .map_err(|e| NotSimulated::Simulator(e.not_simulated()))?;
            // How long the region took, simulated, as the child timed it around (not
            // inside) the region.
            let took = std::fs::read_to_string(&region_time)
                .ok()
                .and_then(|t| read_region_time(&t).ok())
                .unwrap_or_default();
            Ok::<_, NotSimulated>((run, took.to_std()))
        };
        Ok((run(calls)?, run(2 * calls)?))
    }

    /// The child of N calls run without valgrind: how long its start, setup and region
    /// take, and whether it runs at all.
    fn run_natively(&self, calls: u64) -> Result<Duration, NotSimulated> {
        let argv = self.argv(calls, None);
        let started = Instant::now();
        let out = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| NotSimulated::Start {
                program: argv[0].clone(),
                cause: e.to_string(),
            })?;
        let took = started.elapsed();
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            return Err(NotSimulated::Failed {
                status: out.status.to_string(),
                stderr: err.trim().to_string(),
            });
        }
        Ok(took)
    }
}

/// N: about `REGION_NATIVE` of calls, at most the largest batch the timed samples ran
/// (which `iter_batched` bounds by the cost of its setup) and `MAX_CALLS`, at least 1.
fn calls_for(per_call: Duration, largest_batch: u64) -> u64 {
    let n = REGION_NATIVE.as_secs_f64() / per_call.as_secs_f64().max(1e-12);
    (n.ceil() as u64).min(largest_batch).clamp(1, MAX_CALLS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_cover_about_five_milliseconds_natively_within_the_timed_batch() {
        let any = u64::MAX;
        assert_eq!(calls_for(Duration::from_nanos(1), any), MAX_CALLS);
        assert_eq!(calls_for(Duration::from_micros(1), any), 5_000);
        assert_eq!(calls_for(Duration::from_micros(1), 300), 300);
        assert_eq!(calls_for(Duration::from_millis(2), any), 3);
        assert_eq!(calls_for(Duration::from_secs(1), any), 1);
        assert_eq!(calls_for(Duration::from_millis(2), 0), 1);
        assert_eq!(calls_for(Duration::ZERO, any), MAX_CALLS);
    }

    #[test]
    fn the_second_run_beyond_the_first_is_per_call() {
        let first = Totals {
            instructions: 1_000_100,
            conditional_branches: 200_010,
            conditional_mispredicts: 50,
            d1_misses: 7,
            ..Totals::default()
        };
        let second = Totals {
            instructions: 2_000_100,
            conditional_branches: 400_010,
            conditional_mispredicts: 100_050,
            d1_misses: 5,
            ..Totals::default()
        };
        let d = second.beyond(&first);
        assert_eq!(
            (
                d.instructions,
                d.conditional_branches,
                d.conditional_mispredicts
            ),
            (1_000_000, 200_000, 100_000)
        );
        assert_eq!(d.d1_misses, 0, "never below zero");
        let mut counts = SimulatedCounts::new("callgrind", None);
        push(
            &mut counts,
            4 * 1000,
            &Difference {
                totals: d,
                wall: None,
            },
        );
        assert_eq!(counts.per_op(&Metric::Instructions), [250.0]);
        assert!(counts.samples.values(&Metric::WallTime).is_none());
    }
}
