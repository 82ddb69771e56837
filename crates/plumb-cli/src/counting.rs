//! `--counters[=auto|hardware|simulated]` decided against this machine: which counters
//! a run reads, whether it simulates, and the lines that tell the user so (once per run).

use crate::args::CountersArg;
use crate::exit::CliError;
use plumb_command::SimulationPlan;
use plumb_counters::cachegrind::{valgrind_version, Geometry};
use plumb_model::Environment;
use std::time::Duration;

pub struct HowCounted {
    pub simulation: Option<SimulationPlan>,
    /// Printed before the run: what is missing here and what is done instead.
    pub notices: Vec<String>,
}

pub fn plan(
    mode: CountersArg,
    env: &Environment,
    budget: Duration,
) -> Result<HowCounted, CliError> {
    let hardware_here = env
        .counters
        .as_ref()
        .is_some_and(|c| !c.hardware.is_empty());
    let simulate = match mode {
        CountersArg::Hardware if !hardware_here => {
            return Err(CliError(format!(
                "--counters=hardware: hardware counters are {}; --counters=simulated (or auto) simulates them with valgrind",
                plumb_report::hardware_counters(env)
            )));
        }
        CountersArg::Hardware => false,
        CountersArg::Simulated => true,
        CountersArg::Auto => !hardware_here,
    };
    let mut notices = Vec::new();
    let simulation = if simulate {
        match simulation_plan(env, budget) {
            Ok(sim) => Some(sim),
            Err(why) if mode == CountersArg::Simulated => {
                return Err(CliError(format!("--counters=simulated: {why}")))
            }
            Err(why) => {
                notices.push(format!("cannot simulate counters: {why}"));
                None
            }
        }
    } else {
        None
    };
    let described = simulation
        .as_ref()
        .map(|s| plumb_report::simulation_summary(&s.tool(), &(&s.geometry).into()));
    if mode == CountersArg::Simulated && hardware_here {
        notices.push(format!(
            "hardware counters are available here but simulated ones were asked for: {}",
            described.as_deref().unwrap_or_default()
        ));
    } else if let Some(line) = plumb_report::counter_notice(env, described.as_deref()) {
        notices.insert(0, line);
    }
    Ok(HowCounted {
        simulation,
        notices,
    })
}

fn simulation_plan(env: &Environment, budget: Duration) -> Result<SimulationPlan, String> {
    let valgrind = valgrind_version().map_err(|e| e.to_string())?;
    let geometry = Geometry::from_caches(&env.caches)
        .map_err(|e| format!("{e}, so cachegrind cannot be given this machine's caches"))?;
    Ok(SimulationPlan {
        geometry,
        budget,
        valgrind,
    })
}
