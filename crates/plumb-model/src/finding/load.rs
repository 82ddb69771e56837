//! Findings about a load test: what succeeded, the generator's own timeliness and
//! capacity, waits for connections, retries, and agents' results merged.
use crate::quantity::Duration;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// No request succeeded; the errors by kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NothingSucceeded {
    pub errors: BTreeMap<String, u64>,
}

/// `errors` of the `ended` requests failed; `max_error_rate` were accepted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadErrors {
    pub errors: u64,
    pub ended: u64,
    #[serde(with = "crate::nan_as_null")]
    pub max_error_rate: f64,
}

impl LoadErrors {
    pub fn rate(&self) -> f64 {
        self.errors as f64 / self.ended.max(1) as f64
    }

    pub fn over(&self) -> bool {
        self.rate() > self.max_error_rate
    }
}

/// The generator fell behind its schedule: late beyond `max_lateness`, or saturated
/// (`busy` of the time working) while requests waited or went unsent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GeneratorBehind {
    pub lateness_p99: Duration,
    pub max_lateness: Duration,
    #[serde(with = "crate::nan_as_null")]
    pub busy: f64,
    /// Accepted with `--allow-late`.
    pub allow_late: bool,
    /// In a merged result: the agent that fell behind (absent: the generator itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
}

impl GeneratorBehind {
    /// Behind because it was late (else because it was saturated).
    pub fn late(&self) -> bool {
        self.lateness_p99 > self.max_lateness
    }
}

/// The latency tail is mostly the generator's own lateness, not the server's: at one
/// percentile, latency (from the due time) well above the service time (from the send),
/// the difference covered by the generator's send lateness — while within its bound, so
/// no gate said so.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatencyFromGenerator {
    /// The percentile where it holds: `p99`, or `p99.9` when p99 is the server's.
    pub percentile: String,
    pub latency: Duration,
    pub service: Duration,
    pub lateness: Duration,
}

/// Before the test: the asked rate is above what `threads` generator threads can send
/// on schedule, by a probe of the CPU each request costs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RateAboveCapacity {
    #[serde(with = "crate::nan_as_null")]
    pub rate: f64,
    pub threads: usize,
    pub cpu_per_request: Duration,
    /// Requests per second one thread can send, planned at 80 % of the probe's figure.
    #[serde(with = "crate::nan_as_null")]
    pub per_thread: f64,
    pub threads_needed: usize,
    /// The CPUs this process may use.
    pub cpus: usize,
}

/// `waited` of `due` requests waited for a free connection (all `in_flight` busy).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InFlightBoundFull {
    pub waited: u64,
    pub due: u64,
    pub max_wait: Duration,
    pub in_flight: usize,
}

/// Requests sent again after the server closed a kept-alive connection under them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Retried {
    pub retried: u64,
}

/// https with `--insecure`: the server's certificate was not checked, so the service
/// measured may not be the one named.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TlsNotVerified {
    pub url: String,
}

/// Merged agents' measured windows that do not overlap, or could not be checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "basis", rename_all = "kebab-case")]
pub enum DisjointWindows {
    /// A result had no measured window (made before plumb 0.13).
    NotChecked {},
    /// The windows overlap on only `overlap` of `narrowest`'s (at least `min_overlap`
    /// is required); merged over their union (`--allow-disjoint`) when `merged`.
    Overlap {
        #[serde(with = "crate::nan_as_null")]
        overlap: f64,
        #[serde(with = "crate::nan_as_null")]
        min_overlap: f64,
        narrowest: String,
        windows: Vec<AgentWindow>,
        merged: bool,
    },
}

/// An agent's measured window, from the earliest agent's start.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentWindow {
    pub agent: String,
    pub from: Duration,
    pub to: Duration,
}

/// Merged results that ran different schedules, or loaded different targets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "basis", rename_all = "kebab-case")]
pub enum DifferentSchedules {
    /// Each agent's rate per second (`None`: a closed loop).
    Rates { rates: Vec<Option<f64>> },
    /// The targets the inputs loaded, each merged on its own.
    Targets { targets: Vec<String> },
    /// Agents sharing one schedule (`--agents N`) of which these indices are not among
    /// the inputs: the merge is not the whole schedule.
    AgentsMissing { agents: u32, missing: Vec<u32> },
}
