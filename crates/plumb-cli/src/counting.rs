//! `--counters[=auto|hardware|simulated]` decided against this machine (by
//! `plumb_counters::plan`, as the in-process harness does), and the lines that tell the
//! user so, once per run.

use crate::args::CountersArg;
use crate::exit::CliError;
use plumb_counters::plan::{decide, Counting, Mode};
use plumb_model::Environment;
use std::time::Duration;

pub fn plan(mode: CountersArg, env: &Environment, budget: Duration) -> Result<Counting, CliError> {
    let mode = match mode {
        CountersArg::Auto => Mode::Auto,
        CountersArg::Hardware => Mode::Hardware,
        CountersArg::Simulated => Mode::Simulated,
    };
    let decision =
        decide(mode, env, budget, &plumb_report::hardware_counters(env)).map_err(CliError)?;
    let described = decision.simulation.as_ref().map(|s| {
        plumb_report::simulation_summary(
            &s.tool(),
            &(&s.geometry).into(),
            "once per command after the timed runs",
        )
    });
    let notices = plumb_report::counting_notices(
        env,
        mode == Mode::Simulated,
        described.as_deref(),
        decision.cannot_simulate.as_deref(),
    );
    Ok(Counting {
        simulation: decision.simulation,
        notices,
    })
}
