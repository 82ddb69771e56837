//! One counters plan for `plumb run` and the in-process harness: `--counters` decided
//! against this machine (plumb-counters' `decide`), and the words that tell the user
//! what is counted here and why, or why the mode was refused.

use crate::env_view::{counting_notices, hardware_counters, simulation_summary};
use plumb_counters::plan::{decide, CommandCounting, CounterMode, Counting, Refusal};
use plumb_model::Environment;
use std::time::Duration;

/// What a simulation runs, which names its tool and how it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// `plumb run` and `plumb revs`: each command `runs` times under cachegrind after the
    /// timed runs.
    Commands { runs: u64 },
    /// The harness: each routine's calls under callgrind, N against 2N.
    Routines,
}

/// `mode` decided here, with the lines to print before the run; a refusal in words.
pub fn counting_plan(
    mode: CounterMode,
    env: &Environment,
    budget: Duration,
    counted: Counted,
) -> Result<Counting, CountersRefused> {
    let decision = decide(mode, env, budget).map_err(|refusal| CountersRefused {
        hardware: hardware_counters(env),
        refusal,
    })?;
    let mut simulation = decision.simulation;
    if let (Some(s), Counted::Commands { runs }) = (&mut simulation, counted) {
        s.runs = runs;
    }
    let described = simulation.as_ref().map(|s| {
        let (tool, how) = match counted {
            Counted::Commands { runs: 1 } => {
                (s.tool(), "once per command after the timed runs".to_string())
            }
            Counted::Commands { runs } => (
                s.tool(),
                format!("{runs} times per command, interleaved, after the timed runs"),
            ),
            Counted::Routines => (
                s.region_tool(),
                "counting only each routine's calls (N against 2N), once per benchmark after the timed samples".to_string(),
            ),
        };
        simulation_summary(&tool, &(&s.geometry).into(), &how)
    });
    let notices = counting_notices(
        env,
        mode == CounterMode::Simulated,
        described.as_deref(),
        decision
            .cannot_simulate
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
    );
    Ok(Counting {
        simulation,
        notices,
    })
}

/// The counting `plumb run` and `plumb revs` asked for (`--counters`, or a gate on
/// cycles), decided here; `None` when nothing is counted.
pub fn commands_counting(
    asked: &CommandCounting,
    env: &Environment,
    gate_on_cycles: bool,
) -> Result<Option<Counting>, CountersRefused> {
    let Some(mode) = asked.mode(gate_on_cycles) else {
        return Ok(None);
    };
    let counted = Counted::Commands {
        runs: asked.sim_runs,
    };
    counting_plan(mode, env, asked.sim_budget.to_std(), counted).map(Some)
}

/// A refused mode (plumb-counters' `Refusal`), with how the hardware counters stand on
/// this machine: said as why, and the mode that works here.
#[derive(Debug, Clone, PartialEq)]
pub struct CountersRefused {
    pub refusal: Refusal,
    /// `hardware_counters`' words for this machine.
    pub hardware: String,
}

impl std::fmt::Display for CountersRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.refusal {
            Refusal::NoHardwareCounters => write!(
                f,
                "--counters=hardware: hardware counters are {}; --counters=simulated (or auto) simulates them with valgrind",
                self.hardware
            ),
            Refusal::CannotSimulate(why) => write!(f, "--counters=simulated: {why}"),
        }
    }
}

impl std::error::Error for CountersRefused {}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{CounterAvailability, MissingCounter, MissingWhy};

    #[test]
    fn a_refusal_says_why_and_what_works_here() {
        let env = Environment {
            counters: Some(CounterAvailability {
                hardware: vec![],
                software: vec!["task-clock".into()],
                missing: vec![MissingCounter {
                    event: "cycles".into(),
                    hardware: true,
                    why: MissingWhy::NotSupported,
                    detail: "No such file or directory (os error 2)".into(),
                }],
            }),
            ..Environment::default()
        };
        let e = counting_plan(
            CounterMode::Hardware,
            &env,
            Duration::from_secs(1),
            Counted::Commands { runs: 1 },
        )
        .unwrap_err();
        assert_eq!(e.refusal, Refusal::NoHardwareCounters);
        assert_eq!(
            e.to_string(),
            "--counters=hardware: hardware counters are not available: the CPU or the hypervisor exposes none (cycles: No such file or directory (os error 2)); --counters=simulated (or auto) simulates them with valgrind"
        );
        let e = counting_plan(
            CounterMode::Simulated,
            &env,
            Duration::from_secs(1),
            Counted::Routines,
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("--counters=simulated: "), "{e}");
    }
}
