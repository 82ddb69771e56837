//! `plumb simulate`'s result: a single-server queue in virtual time under a closed-loop
//! and an open-loop client, and the settings it ran with.

use crate::quantity::{Duration, Rate};
use crate::LatencyDistribution;
use serde::{Deserialize, Serialize};

/// When the simulated server stalls.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "every", rename_all = "kebab-case")]
pub enum SimulatedStall {
    /// Every `requests`-th request takes `length` in all.
    Requests { requests: u64, length: Duration },
    /// The server pauses for `length` at every multiple of `period`.
    Period { period: Duration, length: Duration },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimulateSettings {
    pub rate: Rate,
    pub duration: Duration,
    /// Service time of a request that does not stall.
    pub service: Duration,
    pub stall: Option<SimulatedStall>,
    /// Poisson arrivals from this seed (absent: constant intervals).
    pub poisson_seed: Option<u64>,
    /// The closed loop was paced to the rate (never ahead of its schedule) rather than
    /// sending back to back.
    #[serde(default)]
    pub closed_paced: bool,
}

/// What one client model saw.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimulatedClient {
    pub requests: u64,
    pub achieved_rate: f64,
    /// Little's law, from the achieved rate and the mean latency.
    pub mean_in_flight: f64,
    /// From the intended send (open loop) or the actual send (closed loop).
    pub latency: LatencyDistribution,
    /// Open loop: how late each request was sent against its schedule.
    pub send_lateness: Option<LatencyDistribution>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Simulation {
    pub settings: SimulateSettings,
    /// Offered load: rate × mean service time; at 1 or more the open-loop queue grows for
    /// as long as the test runs.
    pub utilisation: f64,
    pub closed: SimulatedClient,
    pub open: SimulatedClient,
}
