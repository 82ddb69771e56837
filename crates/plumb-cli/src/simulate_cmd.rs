//! The `plumb simulate` subcommand: its options' settings simulated, the report and the
//! `.hgrm` files.
use crate::exit::{self, CliError, Outcome};
use plumb_load::options::SimulateOptions;
use plumb_load::{check_size, simulation, write_hgrm};
use plumb_report::render_simulation;

pub fn run(a: SimulateOptions) -> Result<Outcome, CliError> {
    let settings = a.settings()?;
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
