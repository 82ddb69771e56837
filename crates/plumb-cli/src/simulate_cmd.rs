//! The `plumb simulate` subcommand: options to a queue simulation, its report and `.hgrm` files.
use crate::args::SimulateArgs;
use crate::exit::{self, CliError, Outcome};
use plumb_load::{model::decode, percentile_distribution, simulation};
use plumb_model::{SimulateSettings, SimulatedStall};
use plumb_report::render_simulation;

pub fn run(a: SimulateArgs) -> Result<Outcome, CliError> {
    let settings = settings(&a)?;
    if let Some(dir) = &a.hgrm_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::msg(format!("cannot create {}: {e}", dir.display())))?;
    }
    let requests = settings.rate.per_second() * settings.duration.as_secs_f64();
    if requests > MAX_REQUESTS {
        return Err(CliError::msg(format!(
            "{requests:.2e} requests to simulate, more than {MAX_REQUESTS:.0e}: lower --rate or --duration"
        )));
    }
    if requests > LONG_REQUESTS {
        eprintln!(
            "plumb: simulating {requests:.2e} requests for each client: about {}",
            plumb_model::format::time(std::time::Duration::from_secs_f64(
                2.0 * requests / REQUESTS_PER_SECOND
            ))
        );
    }
    let sim = simulation(&settings);
    exit::print_stdout(&render_simulation(&sim))?;
    if let Some(dir) = &a.hgrm_dir {
        for (name, client) in [("closed", &sim.closed), ("open", &sim.open)] {
            let path = dir.join(format!("{name}.hgrm"));
            let h = decode(&client.latency)?;
            std::fs::write(&path, percentile_distribution(&h))
                .map_err(|e| CliError::msg(format!("cannot write {}: {e}", path.display())))?;
        }
    }
    Ok(Outcome::Done)
}

/// About what a release build simulates per second on one core (1e7 requests per client
/// in 0.39 s on the development VM), to say how long a large simulation will take.
const REQUESTS_PER_SECOND: f64 = 5e7;
/// Simulations above this many requests per client say how long they will take first.
const LONG_REQUESTS: f64 = 1e8;
/// ... and above this many (hours) are refused.
const MAX_REQUESTS: f64 = 1e10;

fn settings(a: &SimulateArgs) -> Result<SimulateSettings, CliError> {
    if a.duration.is_zero() {
        return Err(CliError::msg("--duration must be above 0".into()));
    }
    if a.service.is_zero() {
        return Err(CliError::msg("--service must be above 0".into()));
    }
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
