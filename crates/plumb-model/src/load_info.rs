//! What a load test measured: whole latency histograms and their headline figures.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A latency distribution from a load test: the headline figures, and the whole
/// HdrHistogram (V2 deflate serialisation, base64) so results merge losslessly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatencyDistribution {
    pub count: u64,
    /// `p50`, `p90`, `p99`, `p99.9`, `p99.99` → µs.
    pub percentiles_us: BTreeMap<String, f64>,
    pub max_us: f64,
    pub mean_us: f64,
    pub hdr_base64: String,
}

/// One second of a load test (by due time).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimelineRow {
    pub second: u64,
    pub ok: u64,
    pub errors: u64,
    /// Null after a merge: per-second percentiles of several agents cannot be combined
    /// from their summaries (the `.hlog` interval logs can).
    #[serde(with = "crate::nan_as_null")]
    pub p50_us: f64,
    #[serde(with = "crate::nan_as_null")]
    pub p99_us: f64,
    pub max_us: f64,
}

/// What a load test measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadInfo {
    /// `open` (latency from the due time) or `closed` (back to back: not user latency).
    pub mode: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_rate: Option<f64>,
    pub achieved_rate: f64,
    pub duration_s: f64,
    pub ok: u64,
    #[serde(default)]
    pub errors: BTreeMap<String, u64>,
    /// Open loop: the bound on requests in flight; closed loop: the number of clients.
    pub concurrency: usize,
    /// TCP connections opened (more than `concurrency` when the server closes them).
    pub connections_opened: usize,
    /// Little's law, from the achieved rate and the mean latency.
    pub mean_in_flight: f64,
    /// From the due time (open loop) or the send (closed loop).
    pub latency: LatencyDistribution,
    /// From the actual send.
    pub service: LatencyDistribution,
    /// Open loop: how late the generator dispatched against its schedule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_lateness: Option<LatencyDistribution>,
    #[serde(default)]
    pub timeline: Vec<TimelineRow>,
}
