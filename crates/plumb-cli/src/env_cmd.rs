//! The `plumb env` subcommand: the machine record, as text with its noise warnings or as JSON.
use crate::args::EnvArgs;
use crate::exit::{self, CliError, Outcome};
use plumb_analysis::environment_diagnostics;
use plumb_report::render_environment;

pub fn run(a: EnvArgs) -> Result<Outcome, CliError> {
    let env = plumb_env::collect();
    if a.json {
        let json = serde_json::to_string_pretty(&env).expect("the record serialises");
        exit::print_stdout(&format!("{json}\n"))?;
    } else {
        exit::print_stdout(&render_environment(&env, &environment_diagnostics(&env)))?;
    }
    Ok(Outcome::Done)
}
