//! `plumb load --coordinator ADDR`: this agent's side of the test (plumb-load's
//! `agents::side`), joined on the terms the test's plan makes (`Terms::for_test`) before
//! anything is sent.
use crate::args::LoadArgs;
use crate::exit::CliError;
pub use plumb_load::agents::side::AgentSide;
use plumb_load::agents::terms::Terms;
use plumb_load::http::LoadConfig;
use plumb_model::LoadSettings;
use std::sync::atomic::AtomicBool;

/// Joins the coordinator named by `--coordinator`, if any.
pub fn join(
    a: &LoadArgs,
    (config, settings): &(LoadConfig, LoadSettings),
    stop: &AtomicBool,
) -> Result<Option<AgentSide>, CliError> {
    let Some(addr) = &a.link.coordinator else {
        return Ok(None);
    };
    let token = crate::agents_token::token(&a.link.token)?;
    let terms = Terms::for_test(config, settings)
        .ok_or_else(|| CliError::msg("--coordinator needs --agents N".into()))?;
    let wait = (a.link.coordinator_wait.to_std(), a.threads as usize);
    let side = AgentSide::join(addr, (&token, &terms), wait, stop, &mut crate::exit::say)
        .map_err(|e| CliError::msg(format!("{e}; nothing was sent to the target")))?;
    Ok(Some(side))
}
