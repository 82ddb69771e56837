//! `plumb load --coordinator ADDR`: the terms this agent joins on (its settings, and what
//! every agent must still send alike), and its side of the test (plumb-load's
//! `agents::side`) joined before anything is sent.
use crate::args::LoadArgs;
use crate::exit::CliError;
pub use plumb_load::agents::side::AgentSide;
use plumb_load::agents::terms::Terms;
use plumb_model::LoadSettings;
use std::sync::atomic::AtomicBool;

/// Joins the coordinator named by `--coordinator`, if any.
pub fn join(
    a: &LoadArgs,
    settings: &LoadSettings,
    stop: &AtomicBool,
) -> Result<Option<AgentSide>, CliError> {
    let Some(addr) = &a.link.coordinator else {
        return Ok(None);
    };
    let token = crate::agents_token::token(&a.link.token)?;
    let name = settings.agent.clone().unwrap_or_default();
    let mut terms = Terms::of(settings, &name)
        .ok_or_else(|| CliError::msg("--coordinator needs --agents N".into()))?;
    // What the result's settings do not keep but every agent must still send alike.
    let digest = plumb_load::agents::terms::digest;
    let headers = a.headers.join("\n");
    for (option, value) in [
        ("-H/--header", digest(&[headers.as_bytes()])),
        ("--body", digest(&[a.body.as_bytes()])),
        ("--insecure", a.tls.insecure.to_string()),
    ] {
        terms.agreed.insert(option.into(), value);
    }
    let wait = (a.link.coordinator_wait.to_std(), a.threads as usize);
    let side = AgentSide::join(addr, (&token, &terms), wait, stop, &mut crate::exit::say)
        .map_err(|e| CliError::msg(format!("{e}; nothing was sent to the target")))?;
    Ok(Some(side))
}
