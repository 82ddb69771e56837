//! `plumb load`'s options, declared once beside the plan they make (feature `cli`): the
//! targets, the schedule, what is sent, the gates, TLS and the agents; `plan` turns them
//! into each target's configuration and the settings its result records, every refusal a
//! typed `PlanError` before anything is sent.
mod agents;
mod k8s;
mod simulate;
mod tls;

pub use agents::{AgentLink, CoordinateOptions, JoinError, TokenFlags};
pub use k8s::{in_a_pod, K8sOptions};
pub use simulate::{SimulateOptions, StallTooLong};
pub use tls::TlsFlags;

use crate::http::LoadConfig;
use crate::plan::{agent_share, parse_headers, plan_mix, plan_urls, PlanError, Sent};
use clap::Args;
use plumb_model::quantity::{
    parse_count, parse_moment, parse_share, ByteSize, Confidence, Duration, Fraction, Rate,
    Timestamp,
};
use plumb_model::{LoadMode, LoadSettings};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct LoadOptions {
    /// The target, http[s]://host[:port]/path. Two targets are loaded in turn, run by run
    /// (A B B A … with --repeat), and the second compared with the first: exit 1 when it
    /// is slower at a percentile.
    #[arg(required_unless_present = "targets", num_args = 1..=2, value_name = "URL")]
    pub urls: Vec<String>,
    /// A request mix instead of one URL: a targets file in vegeta's format (`METHOD URL`,
    /// header lines, `@body-file`, a blank line between targets) with an optional
    /// `weight N` line per target. Each request draws its target by weight from --seed
    /// (the same seed and threads draw the same sequence); each target is reported apart
    /// and the whole together; -H headers are added to every target.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["urls", "method", "body"])]
    pub targets: Option<PathBuf>,
    /// Runs of the test, one after the other. Comparisons judge a percentile by the
    /// spread of the runs' own: run-to-run variation, which one run cannot show (one run
    /// per side compares as inconclusive).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeat: u32,
    /// Open loop at this many requests per second.
    #[arg(long, required_unless_present = "closed", conflicts_with = "closed")]
    pub rate: Option<Rate>,
    /// Closed loop with N connections instead (throughput; not user latency).
    #[arg(long, value_name = "N", value_parser = |s: &str| parse_count(s, 1))]
    pub closed: Option<u64>,
    /// Measured duration, e.g. 30s.
    #[arg(long, default_value = "10s")]
    pub duration: Duration,
    /// Warm-up before measuring (its requests are sent, not recorded).
    #[arg(long, default_value = "2s")]
    pub warmup: Duration,
    /// Per-request timeout.
    #[arg(long, default_value = "10s")]
    pub timeout: Duration,
    /// Most requests in flight at once, i.e. connections (open loop; split between
    /// threads). Beyond it, due requests wait for a connection: their latency includes
    /// the wait and the report says the server did not keep up at this concurrency. Like
    /// oha's 50 connections, a small pool spares the server a storm of connects when it
    /// stalls; raise it for servers slower than this bound divided by the rate.
    #[arg(long, default_value = "64", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_in_flight: u64,
    /// One connection per request, closed after its answer: each latency then includes
    /// the TCP connect and, over https, the TLS handshake (as a client without
    /// keep-alive feels it); both are also reported apart. The in-flight bound is then
    /// the most connections open at once.
    #[arg(long, conflicts_with = "pipeline")]
    pub new_connection: bool,
    /// Poisson arrivals (open loop), from --seed.
    #[arg(long)]
    pub poisson: bool,
    /// The seed of Poisson arrivals and of a mix's draws.
    #[arg(long, default_value_t = 1, value_parser = |s: &str| parse_count(s, 0))]
    pub seed: u64,
    /// HTTP method.
    #[arg(short = 'X', long, default_value = "GET")]
    pub method: String,
    /// A request header, 'Name: value'; repeatable.
    #[arg(short = 'H', long = "header")]
    pub headers: Vec<String>,
    /// Request body.
    #[arg(long, default_value = "")]
    pub body: String,
    /// Write latency.hgrm, service.hgrm (and lateness.hgrm) here.
    #[arg(long, value_name = "DIR")]
    pub hgrm_dir: Option<PathBuf>,
    /// Write per-second latency histograms as an HdrHistogram interval log (.hlog).
    #[arg(long, value_name = "FILE")]
    pub hlog: Option<PathBuf>,
    #[command(flatten)]
    pub tls: TlsFlags,
    /// Start the schedule at this wall-clock time (Unix seconds, or RFC 3339 in UTC), so
    /// agents start together.
    #[arg(long, value_name = "UNIX_SECONDS", value_parser = parse_moment)]
    pub start_at: Option<Timestamp>,
    /// This agent's name, recorded in the result (for plumb merge).
    #[arg(long)]
    pub agent: Option<String>,
    /// N agents share one schedule: --rate is then the whole test's, and this agent sends
    /// arrivals I, I + N, I + 2N, … of it (I from --agent-index), so the agents together
    /// send exactly what one generator would have, due time by due time (Poisson too).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub agents: Option<u32>,
    /// This agent's index, 0 … N − 1 (else JOB_COMPLETION_INDEX, as a Kubernetes Indexed
    /// Job sets it, or SLURM_PROCID).
    #[arg(long, value_name = "I")]
    pub agent_index: Option<u32>,
    #[command(flatten)]
    pub link: AgentLink,
    /// Confidence level recorded with the result (and used when it is analysed or compared).
    #[arg(long, default_value = "99.9%", value_name = "LEVEL")]
    pub confidence: Confidence,
    /// Smallest effect size of interest recorded with the result, e.g. 2% or 0.02.
    #[arg(long, default_value = "2%", value_name = "EFFECT")]
    pub sesoi: Fraction,
    /// How long before each due time to stop sleeping and poll instead (e.g. 100us, 1s):
    /// longer sends more punctually and keeps the thread hot, at a CPU cost.
    #[arg(long, default_value = "100us")]
    pub spin: Duration,
    /// Generator threads, each with its own connections, share of the rate and recorder
    /// (merged losslessly at the end).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Requests outstanding on one connection at once (HTTP/1.1 pipelining). 1, the
    /// default, sends each request on a connection with nothing in flight.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub pipeline: u32,
    /// HTTP/2: on https offered by ALPN (a server that offers only HTTP/1.1 is said, and
    /// measured over HTTP/1.1), on http by prior knowledge (h2c). Requests are streams
    /// multiplexed on few connections (--streams each); latency still runs from each
    /// request's due time.
    #[arg(long, conflicts_with = "pipeline")]
    pub http2: bool,
    /// With --http2: the most streams in flight on one connection (the server's own
    /// bound, its SETTINGS_MAX_CONCURRENT_STREAMS, applies too). Connections opened:
    /// --max-in-flight divided by this.
    #[arg(long, default_value_t = 100, requires = "http2", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub streams: u32,
    /// Answers with a larger body fail (and close their connection).
    #[arg(long, default_value = "64MiB", value_name = "SIZE")]
    pub max_body: ByteSize,
    /// After the measured window, wait at most this long (never past --timeout) for answers
    /// still in flight; those unanswered then count as errors.
    #[arg(long, default_value = "2s")]
    pub drain: Duration,
    /// The fraction of requests that may fail with the run still exiting 0: 0, the default,
    /// fails on any error; e.g. 0.1% or 0.001.
    #[arg(long, default_value = "0", value_name = "FRACTION", value_parser = parse_share)]
    pub max_error_rate: f64,
    /// Exit 0 even when the generator fell behind its own schedule (send lateness p99
    /// above --max-lateness); the report still says so.
    #[arg(long)]
    pub allow_late: bool,
    /// The generator's own send lateness p99 above which it is behind its schedule (exit
    /// 1 unless --allow-late). A shared CI runner that starves the generator for
    /// milliseconds at a time may need more.
    #[arg(long, default_value = "5ms")]
    pub max_lateness: Duration,
}

/// Each target's plan, and what was said about options that do not apply.
pub struct Planned {
    /// The generator's configuration and the settings its result records, a target each
    /// (a mix is one target).
    pub targets: Vec<(LoadConfig, LoadSettings)>,
    /// TLS options given for plain http, ignored.
    pub notices: Vec<String>,
}

impl LoadOptions {
    /// The plan: every target's, the share of an agent read from `env` (the process's
    /// environment in a run) when `--agents` asks for one.
    pub fn plan(&self, env: impl Fn(&str) -> Option<String>) -> Result<Planned, PlanError> {
        let (settings, sent) = (self.settings(env)?, self.sent()?);
        let targets = match &self.targets {
            Some(file) => vec![plan_mix(settings, sent, file)?],
            None => plan_urls(&settings, &sent, &self.urls)?,
        };
        self.refuse_with_runs()?;
        let notices = (targets.iter().filter(|(c, _)| !c.uses_tls()))
            .filter_map(|(c, s)| {
                let mix = !c.mix.is_empty();
                self.tls.unused(if mix {
                    "every target of the mix"
                } else {
                    &s.url
                })
            })
            .collect();
        Ok(Planned { targets, notices })
    }

    /// What writes one run's histograms or pins one run to the wall clock has no meaning
    /// for several runs.
    fn refuse_with_runs(&self) -> Result<(), PlanError> {
        if self.repeat == 1 && self.urls.len() <= 1 {
            return Ok(());
        }
        if self.urls.len() == 2 && self.urls[0] == self.urls[1] {
            return Err(PlanError::SameTargetTwice(self.urls[0].clone()));
        }
        let runs = if self.repeat > 1 {
            "--repeat"
        } else {
            "two targets"
        };
        let one_run = [
            (self.hlog.is_some(), "--hlog"),
            (self.hgrm_dir.is_some(), "--hgrm-dir"),
            (self.start_at.is_some(), "--start-at"),
            (self.link.coordinator.is_some(), "--coordinator"),
        ];
        match one_run.into_iter().find(|(given, _)| *given) {
            Some((_, option)) => Err(PlanError::OneRunOnly { option, runs }),
            None => Ok(()),
        }
    }

    /// What the test sends beyond what its result records.
    fn sent(&self) -> Result<Sent, PlanError> {
        Ok(Sent {
            headers: parse_headers(&self.headers)?,
            body: self.body.clone().into_bytes(),
            tls: self.tls.options(self.new_connection, self.http2),
            mix: Vec::new(),
            hlog: self.hlog.clone(),
            seed: self.seed,
            pipeline: self.pipeline as usize,
            streams: self.streams as usize,
        })
    }

    /// What the result records of the options (the URL each target's; TLS filled once
    /// the handshake has agreed).
    fn settings(&self, env: impl Fn(&str) -> Option<String>) -> Result<LoadSettings, PlanError> {
        let agents = agent_share(self.agents, self.agent_index, env)?;
        let mode = match (self.rate, self.closed) {
            (Some(rate), None) => LoadMode::Open {
                rate,
                max_in_flight: self.max_in_flight,
                poisson_seed: self.poisson.then_some(self.seed),
            },
            (None, Some(connections)) => LoadMode::Closed { connections },
            _ => return Err(PlanError::RateOrClosed),
        };
        Ok(LoadSettings {
            url: String::new(),
            method: self.method.clone(),
            mode,
            duration: self.duration,
            warmup: self.warmup,
            timeout: self.timeout,
            start_at: self.start_at,
            // One of several agents sharing a schedule is named by its index unless named.
            agent: (self.agent.clone()).or_else(|| agents.map(|s| format!("agent-{}", s.index))),
            spin: self.spin,
            threads: self.threads,
            pipeline: if self.http2 {
                self.streams
            } else {
                self.pipeline
            },
            drain: Some(self.drain),
            max_body: Some(self.max_body),
            max_error_rate: Some(self.max_error_rate),
            allow_late: self.allow_late,
            max_lateness: Some(self.max_lateness),
            repeat: self.repeat,
            second_url: self.urls.get(1).cloned(),
            new_connection: self.new_connection,
            // Filled once the handshake before the test has said what was agreed.
            tls: None,
            http2: self.http2,
            agents,
            mix: None,
            coordinated: None,
        })
    }
}

#[cfg(test)]
mod tests;
