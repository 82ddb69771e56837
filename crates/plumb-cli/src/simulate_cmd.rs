//! The `plumb simulate` subcommand: options to a queue simulation, its report and `.hgrm` files.
use crate::args::SimulateArgs;
use crate::exit::{self, CliError, Outcome};
use plumb_load::{check_size, simulation, write_hgrm};
use plumb_model::{SimulateSettings, SimulatedStall};
use plumb_report::render_simulation;

pub fn run(a: SimulateArgs) -> Result<Outcome, CliError> {
    let settings = settings(&a)?;
    check_size(&settings, &mut exit::say)?;
    if let Some(dir) = &a.hgrm_dir {
        plumb_report::targets::OutputDir::prepare("--hgrm-dir", dir)?;
    }
    let sim = simulation(&settings);
    exit::print_stdout(&render_simulation(&sim))?;
    if let Some(dir) = &a.hgrm_dir {
        write_hgrm(&sim, dir)?;
    }
    Ok(Outcome::Done)
}

fn settings(a: &SimulateArgs) -> Result<SimulateSettings, CliError> {
    let stall = match (a.stall.is_zero(), a.stall_every, a.stall_period) {
        (true, _, _) => None,
        (false, Some(requests), None) => Some(SimulatedStall::Requests {
            requests,
            length: a.stall,
        }),
        (false, None, Some(period)) if period > a.stall => Some(SimulatedStall::Period {
            period,
            length: a.stall,
        }),
        (false, None, Some(_)) => {
            return Err(CliError::msg(
                "--stall-period must be longer than --stall".into(),
            ))
        }
        (false, None, None) => Some(SimulatedStall::Requests {
            requests: 500,
            length: a.stall,
        }),
        (false, Some(_), Some(_)) => unreachable!("clap refuses both"),
    };
    Ok(SimulateSettings {
        rate: a.rate,
        duration: a.duration,
        service: a.service,
        stall,
        poisson_seed: a.poisson.then_some(a.seed),
        closed_paced: a.closed_paced,
    })
}
