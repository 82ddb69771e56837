//! `plumb simulate`'s options: the queue's rate, service time and stalls, the clients'
//! arrivals; read as the settings a simulation records.
use clap::Args;
use plumb_model::quantity::{parse_count, Duration, Rate};
use plumb_model::{SimulateSettings, SimulatedStall};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct SimulateOptions {
    /// Target rate, requests per second.
    #[arg(long, default_value = "450")]
    pub rate: Rate,
    /// How long the test runs (virtual time), e.g. 30s.
    #[arg(long, default_value = "30s")]
    pub duration: Duration,
    /// Service time of a normal request, e.g. 1ms, 250us.
    #[arg(long, default_value = "1ms")]
    pub service: Duration,
    /// How long a stalled request takes (with --stall-every) or the server pauses (with
    /// --stall-period); 0 for no stalls.
    #[arg(long, default_value = "200ms")]
    pub stall: Duration,
    /// Stall on every N-th request (500 when neither this nor --stall-period is given).
    #[arg(long, value_name = "N", value_parser = |s: &str| parse_count(s, 1), conflicts_with = "stall_period")]
    pub stall_every: Option<u64>,
    /// Stall for --stall at every multiple of this much time, e.g. 1s.
    #[arg(long, value_name = "TIME")]
    pub stall_period: Option<Duration>,
    /// Poisson arrivals instead of a constant interval.
    #[arg(long)]
    pub poisson: bool,
    /// Seed for --poisson.
    #[arg(long, default_value_t = 1, value_parser = |s: &str| parse_count(s, 0))]
    pub seed: u64,
    /// Pace the closed-loop client to --rate too (it waits when ahead of the schedule)
    /// instead of sending back to back as fast as the server answers.
    #[arg(long)]
    pub closed_paced: bool,
    /// Write closed.hgrm and open.hgrm (HdrHistogram percentile distributions) here.
    #[arg(long, value_name = "DIR")]
    pub hgrm_dir: Option<PathBuf>,
}

/// `--stall-period` not longer than the stall it makes the server pause for.
#[derive(Debug)]
pub struct StallTooLong;

impl std::fmt::Display for StallTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("--stall-period must be longer than --stall")
    }
}

impl std::error::Error for StallTooLong {}

impl SimulateOptions {
    /// The settings the simulation runs and records.
    pub fn settings(&self) -> Result<SimulateSettings, StallTooLong> {
        let length = self.stall;
        let stall = match (self.stall.is_zero(), self.stall_every, self.stall_period) {
            (true, _, _) => None,
            (false, _, Some(period)) if period <= length => return Err(StallTooLong),
            (false, _, Some(period)) => Some(SimulatedStall::Period { period, length }),
            (false, every, None) => Some(SimulatedStall::Requests {
                requests: every.unwrap_or(500),
                length,
            }),
        };
        Ok(SimulateSettings {
            rate: self.rate,
            duration: self.duration,
            service: self.service,
            stall,
            poisson_seed: self.poisson.then_some(self.seed),
            closed_paced: self.closed_paced,
        })
    }
}
