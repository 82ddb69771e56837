//! `--counters[=auto|hardware|simulated]` of `plumb run`: plumb-report's one counters
//! plan (the harness uses the same), its refusal an error of the run.

use crate::args::CountersArg;
use crate::exit::CliError;
use plumb_counters::plan::{CounterMode, Counting};
use plumb_model::Environment;
use plumb_report::{counting_plan, Counted};
use std::time::Duration;

pub fn plan(mode: CountersArg, env: &Environment, budget: Duration) -> Result<Counting, CliError> {
    let mode = match mode {
        CountersArg::Auto => CounterMode::Auto,
        CountersArg::Hardware => CounterMode::Hardware,
        CountersArg::Simulated => CounterMode::Simulated,
    };
    counting_plan(mode, env, budget, Counted::Commands).map_err(CliError::from)
}
