//! How big a simulation is asked, before it runs: zero durations refused, one above
//! `MAX_REQUESTS` requests per client refused (hours), one above `LONG_REQUESTS` said
//! with the time it will take; and its latencies written as `.hgrm` files.
use crate::model::decode;
use crate::LoadError;
use plumb_model::{format, SimulateSettings, Simulation};
use std::fmt;
use std::path::Path;

/// About what a release build simulates per second on one core (1e7 requests per client
/// in 0.39 s on the development VM), to say how long a large simulation will take.
const REQUESTS_PER_SECOND: f64 = 5e7;
/// Simulations above this many requests per client say how long they will take first.
const LONG_REQUESTS: f64 = 1e8;
/// ... and above this many (hours) are refused.
const MAX_REQUESTS: f64 = 1e10;

/// A simulation that will not be run.
#[derive(Debug, Clone, PartialEq)]
pub enum TooBig {
    /// A duration option that must be above 0.
    Zero(&'static str),
    /// More requests per client than `MAX_REQUESTS`.
    Requests(f64),
}

impl fmt::Display for TooBig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TooBig::Zero(option) => write!(f, "{option} must be above 0"),
            TooBig::Requests(n) => write!(
                f,
                "{n:.2e} requests to simulate, more than {MAX_REQUESTS:.0e}: lower --rate or --duration"
            ),
        }
    }
}

impl std::error::Error for TooBig {}

/// Refuses what will not run; a long simulation is said through `say`.
pub fn check_size(s: &SimulateSettings, say: &mut dyn FnMut(String)) -> Result<(), TooBig> {
    if s.duration.is_zero() {
        return Err(TooBig::Zero("--duration"));
    }
    if s.service.is_zero() {
        return Err(TooBig::Zero("--service"));
    }
    let requests = s.rate.per_second() * s.duration.as_secs_f64();
    if requests > MAX_REQUESTS {
        return Err(TooBig::Requests(requests));
    }
    if requests > LONG_REQUESTS {
        say(format!(
            "simulating {requests:.2e} requests for each client: about {}",
            format::time(std::time::Duration::from_secs_f64(
                2.0 * requests / REQUESTS_PER_SECOND
            ))
        ));
    }
    Ok(())
}

/// Each client's latency as `closed.hgrm` and `open.hgrm` in `dir`.
pub fn write_hgrm(sim: &Simulation, dir: &Path) -> Result<(), LoadError> {
    let (closed, open) = (decode(&sim.closed.latency)?, decode(&sim.open.latency)?);
    crate::histogram::write_hgrm_files(dir, &[("closed", &closed), ("open", &open)])
}
