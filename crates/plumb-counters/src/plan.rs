//! `--counters[=auto|hardware|simulated]` decided against this machine, the same way for
//! `plumb run` and the in-process harness: whether hardware counters are read, and
//! whether (and how) the rest is simulated.

use crate::cachegrind::{valgrind_version, Geometry};
use crate::unreadable::{CannotSimulate, UnknownMode};
use plumb_model::Environment;
use std::time::Duration;

/// Which counters were asked for (with feature `cli`, `--counters`' values as clap lists
/// them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum CounterMode {
    /// Hardware counters where the CPU has them; simulated (cachegrind) where it does not.
    Auto,
    /// The CPU's counters only; refused where the CPU or the hypervisor exposes none.
    Hardware,
    /// Simulated by valgrind's cachegrind with this machine's cache sizes.
    Simulated,
}

impl std::str::FromStr for CounterMode {
    type Err = UnknownMode;
    fn from_str(s: &str) -> Result<Self, UnknownMode> {
        match s {
            "auto" => Ok(CounterMode::Auto),
            "hardware" => Ok(CounterMode::Hardware),
            "simulated" => Ok(CounterMode::Simulated),
            other => Err(UnknownMode(other.to_string())),
        }
    }
}

/// How counters are simulated: the caches given to valgrind, and how long one
/// simulation may take before it is not started (by the estimate) or stopped.
#[derive(Debug, Clone, PartialEq)]
pub struct SimulationPlan {
    pub geometry: Geometry,
    pub budget: Duration,
    /// valgrind's version ("valgrind-3.19.0"), part of the simulated counts' tool.
    pub valgrind: String,
    /// Simulated runs of each command (`--sim-runs`): one gives exact counts of that
    /// run; two or more an interval over invocations, which a verdict (and a gate) on the
    /// simulated counts stands on.
    pub runs: u64,
}

/// Simulated runs of each command unless asked: three, so that a verdict on simulated
/// counts has an interval over invocations (they differ where addresses move lines
/// between cache sets, or the program is not deterministic).
pub const SIMULATED_RUNS: u64 = 3;

impl SimulationPlan {
    /// A whole command under cachegrind: "cachegrind (valgrind-3.19.0)".
    pub fn tool(&self) -> String {
        format!("cachegrind ({})", self.valgrind)
    }

    /// One in-process routine under callgrind, collecting inside the measured region
    /// only: "callgrind (valgrind-3.19.0)".
    pub fn region_tool(&self) -> String {
        format!("callgrind ({})", self.valgrind)
    }
}

/// How the commands of `plumb run` and `plumb revs` are counted (with feature `cli`,
/// their options as clap declares them).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct CommandCounting {
    /// Count events per command: the kernel's software events (task-clock, page faults,
    /// context switches, migrations) in each measured run, children included; hardware
    /// counters (instructions, cycles, branch and cache misses) where the CPU has them,
    /// or else — with `auto`, the default — a simulation by valgrind's cachegrind with
    /// this machine's cache sizes after the timed runs (instructions, misses at each
    /// level, estimated cycles). `plumb env` says which counters open here. Counting
    /// makes every spawn slower, so compare times only between runs made with the same
    /// setting.
    #[cfg_attr(feature = "cli", arg(long, value_enum, value_name = "HOW", num_args = 0..=1, require_equals = true, default_missing_value = "auto"))]
    pub counters: Option<CounterMode>,
    /// The longest one simulated run may take: one estimated to take longer (from the
    /// command's timed runs) is not started, one that runs longer is stopped, and the
    /// result says so.
    #[cfg_attr(
        feature = "cli",
        arg(long, default_value = "60s", value_name = "DURATION")
    )]
    pub sim_budget: plumb_model::quantity::Duration,
    /// Simulated runs of each command, interleaved: two or more give the simulated
    /// counts an interval over invocations, which their verdict (and `--gate cycles`)
    /// stands on; one gives that run's exact counts.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = SIMULATED_RUNS, value_name = "N", value_parser = |s: &str| plumb_model::quantity::parse_count(s, 1), allow_negative_numbers = true))]
    pub sim_runs: u64,
}

impl CommandCounting {
    /// The mode asked; a gate on cycles without `--counters` counts as `auto` does.
    pub fn mode(&self, gate_on_cycles: bool) -> Option<CounterMode> {
        self.counters
            .or(gate_on_cycles.then_some(CounterMode::Auto))
    }
}

/// What a run will count.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub simulation: Option<SimulationPlan>,
    /// Simulation was wanted (auto, no PMU) and is not possible here: why.
    pub cannot_simulate: Option<CannotSimulate>,
}

/// A run's counting as its front end settles it: the simulation (when it simulates) and
/// the lines that tell the user what is counted here, printed once before the run.
#[derive(Debug, Clone, PartialEq)]
pub struct Counting {
    pub simulation: Option<SimulationPlan>,
    pub notices: Vec<String>,
}

/// Why a mode was refused here; plumb-report words it (`counting_plan`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// `hardware` asked for, and the CPU or the hypervisor exposes no counters.
    NoHardwareCounters,
    /// `simulated` asked for, and valgrind is missing or the caches are unknown: why.
    CannotSimulate(CannotSimulate),
}

/// Decides `mode` against this machine. Refuses hardware counters where the PMU is
/// absent and simulation where valgrind (or the cache geometry) is.
pub fn decide(mode: CounterMode, env: &Environment, budget: Duration) -> Result<Decision, Refusal> {
    let hardware_here = env.hardware_counters_open();
    let simulate = match mode {
        CounterMode::Hardware if !hardware_here => return Err(Refusal::NoHardwareCounters),
        CounterMode::Hardware => false,
        CounterMode::Simulated => true,
        CounterMode::Auto => !hardware_here,
    };
    let mut decision = Decision {
        simulation: None,
        cannot_simulate: None,
    };
    if simulate {
        match simulation_plan(env, budget) {
            Ok(sim) => decision.simulation = Some(sim),
            Err(why) if mode == CounterMode::Simulated => return Err(Refusal::CannotSimulate(why)),
            Err(why) => decision.cannot_simulate = Some(why),
        }
    }
    Ok(decision)
}

fn simulation_plan(env: &Environment, budget: Duration) -> Result<SimulationPlan, CannotSimulate> {
    let valgrind = valgrind_version().map_err(CannotSimulate::Valgrind)?;
    let geometry = Geometry::from_caches(&env.caches).map_err(CannotSimulate::Caches)?;
    Ok(SimulationPlan {
        geometry,
        budget,
        valgrind,
        runs: SIMULATED_RUNS,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::CounterAvailability;

    fn env(hardware: &[&str]) -> Environment {
        Environment {
            counters: Some(CounterAvailability {
                hardware: hardware.iter().map(|s| s.to_string()).collect(),
                software: vec!["task-clock".into()],
                missing: vec![],
            }),
            ..Environment::default()
        }
    }

    #[test]
    fn modes_against_the_machine() {
        let budget = Duration::from_secs(1);
        let none = env(&[]);
        let refused = decide(CounterMode::Hardware, &none, budget).unwrap_err();
        assert_eq!(refused, Refusal::NoHardwareCounters);
        let with_pmu = env(&["cycles"]);
        let d = decide(CounterMode::Hardware, &with_pmu, budget).unwrap();
        assert!(d.simulation.is_none() && d.cannot_simulate.is_none());
        let d = decide(CounterMode::Auto, &with_pmu, budget).unwrap();
        assert!(d.simulation.is_none() && d.cannot_simulate.is_none());
        // No caches in the record: auto says why it cannot simulate (or that valgrind is
        // missing), simulated refuses.
        let d = decide(CounterMode::Auto, &none, budget).unwrap();
        assert!(d.simulation.is_none() && d.cannot_simulate.is_some());
        let e = decide(CounterMode::Simulated, &none, budget).unwrap_err();
        assert!(matches!(e, Refusal::CannotSimulate(_)), "{e:?}");
        assert_eq!(
            "simulated".parse::<CounterMode>(),
            Ok(CounterMode::Simulated)
        );
        assert!("sometimes"
            .parse::<CounterMode>()
            .unwrap_err()
            .to_string()
            .contains("auto"));
    }
}
