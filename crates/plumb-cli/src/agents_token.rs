//! The token a coordinator and its agents share, from `--token-file`, `--token` or
//! `PLUMB_TOKEN` (plumb-load's `token_from` decides which).
use crate::args::TokenArgs;
use crate::exit::CliError;
use plumb_load::agents::auth::Token;

pub fn token(a: &TokenArgs) -> Result<Token, CliError> {
    let env = std::env::var("PLUMB_TOKEN").ok();
    let given = a.token.as_deref();
    let file = a.token_file.as_deref();
    Ok(plumb_load::agents::token_from(
        file,
        given,
        env,
        &mut crate::exit::say,
    )?)
}
