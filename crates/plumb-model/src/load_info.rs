//! What a load test measured: whole latency histograms and their headline figures.

use crate::quantity::{ByteSize, Duration, Timestamp};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A latency distribution from a load test: the headline figures, and the whole
/// HdrHistogram (V2 deflate serialisation, base64) so results merge losslessly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatencyDistribution {
    pub count: u64,
    /// `p50`, `p90`, `p99`, `p99.9`, `p99.99` → the latency at that percentile.
    pub percentiles: BTreeMap<String, Duration>,
    pub max: Duration,
    pub mean: Duration,
    /// The histogram's values are microseconds.
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
    pub p50: Option<Duration>,
    pub p99: Option<Duration>,
    pub max: Duration,
    /// The second's whole latency histogram (V2 deflate, base64), so blocks of seconds
    /// can be compared and seconds of several agents combined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hdr_base64: Option<String>,
}

/// Requests that found every connection busy (the in-flight bound full) and waited for
/// one: the server not keeping up at this concurrency, not the generator falling behind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct SlotWaits {
    pub count: u64,
    pub max: Duration,
    pub total: Duration,
}

impl SlotWaits {
    /// Another thread's or agent's waits, as if counted by one.
    pub fn add(&mut self, other: &SlotWaits) {
        self.count += other.count;
        self.total += other.total;
        self.max = self.max.max(other.max);
    }
}

/// The measured window on the wall clock: where agents' runs overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeasuredWindow {
    pub start: Timestamp,
    pub end: Timestamp,
}

impl MeasuredWindow {
    pub fn length(&self) -> Duration {
        self.end.since(self.start)
    }
}

/// How the generator's connections were set up, timed apart from the requests: every
/// connection the test opened (warm-up included: with keep-alive most open then).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConnectionSetup {
    /// TCP connect: the connect call to the connection established.
    pub connect: LatencyDistribution,
    /// The TLS handshake: established to the handshake finished (https only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handshake: Option<LatencyDistribution>,
    /// Handshakes that resumed an earlier session (abbreviated, no certificate sent).
    #[serde(default)]
    pub resumed: u64,
    /// Connections that spoke HTTP/2 (the others HTTP/1.1).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub http2: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One run of a repeated load test (`plumb load --repeat N`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadRun {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<MeasuredWindow>,
    pub achieved_rate: f64,
    pub ok: u64,
    pub errors: u64,
    pub latency: LatencyDistribution,
}

/// What a load test measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadInfo {
    /// `open` (latency from the due time) or `closed` (back to back: not user latency).
    pub mode: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_rate: Option<f64>,
    pub achieved_rate: f64,
    /// The measured window's length (the runs' lengths added, for a repeated test).
    pub duration: Duration,
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
    /// Requests due in the measured window: `ok` + errors + `abandoned`.
    #[serde(default)]
    pub due: u64,
    /// One message per error kind (the first seen), keyed like `errors`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub error_examples: BTreeMap<String, String>,
    #[serde(default)]
    pub slot_waits: SlotWaits,
    /// Requests sent a second time after the server closed a kept-alive connection
    /// under them before answering; their latency includes the retry.
    #[serde(default)]
    pub retried: u64,
    /// In flight when the test was interrupted: neither answered nor failed.
    #[serde(default)]
    pub abandoned: u64,
    /// Response body bytes received.
    #[serde(default)]
    pub body: ByteSize,
    /// Generator threads, over every agent for a merged result.
    #[serde(default = "one")]
    pub threads: usize,
    /// The agents (machines or processes) whose results were merged into this one; 1 for
    /// a result one `plumb load` wrote.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub agents: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<MeasuredWindow>,
    /// The share of the measured window the generator worked rather than waited (its
    /// busiest thread): near 1, the generator itself was the limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator_busy: Option<f64>,
    /// The connections' setup (connect, TLS handshake), apart from the requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<ConnectionSetup>,
    /// A repeated test's runs, in the order they ran; the fields above are then all runs
    /// together (histograms added, rates over the runs' summed durations). Empty for a
    /// single run. Percentiles compared between results are judged by the spread of the
    /// runs' own percentiles: run-to-run variation, which one run cannot show.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<LoadRun>,
}

fn one() -> usize {
    1
}

fn is_one(n: &usize) -> bool {
    *n == 1
}

impl LoadInfo {
    pub fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }

    /// Percentile `label` (`p50` … `p99.99`) of each run of a repeated test, in the
    /// order they ran (`None` where a run did not keep it); empty for a single run.
    pub fn run_percentiles(&self, label: &str) -> Vec<Option<Duration>> {
        self.runs
            .iter()
            .map(|r| r.latency.percentile(label))
            .collect()
    }

    /// An open-loop result whose answers are `latency` (service time the same) and
    /// nothing else: no errors, no schedule, one thread. The start of a result built
    /// field by field (`LoadInfo { ok: 9, ..LoadInfo::answered(d) }`), so that adding a
    /// field does not mean editing every such place.
    pub fn answered(latency: LatencyDistribution) -> LoadInfo {
        LoadInfo {
            mode: "open".into(),
            target_rate: None,
            achieved_rate: 0.0,
            duration: Duration::ZERO,
            ok: latency.count,
            errors: BTreeMap::new(),
            concurrency: 1,
            connections_opened: 1,
            mean_in_flight: 0.0,
            service: latency.clone(),
            latency,
            send_lateness: None,
            timeline: Vec::new(),
            due: 0,
            error_examples: BTreeMap::new(),
            slot_waits: SlotWaits::default(),
            retried: 0,
            abandoned: 0,
            body: ByteSize(0),
            threads: 1,
            agents: 1,
            window: None,
            generator_busy: None,
            setup: None,
            runs: Vec::new(),
        }
    }
}
