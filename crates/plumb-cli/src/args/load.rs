//! The options of `plumb load`: targets, rate, duration, gates, TLS, agents.
use super::agents::AgentLinkArgs;
use super::common::SaveArgs;
use super::deploy::LoadCommand;
use super::tls::TlsArgs;
use crate::values;
use clap::Args;
use plumb_model::quantity::{Confidence, Duration, Fraction, Rate};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct LoadArgs {
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

    /// A workload file (TOML) declaring what the benchmarks model — keys, mix, records,
    /// sizes, threads, rate, durability, state, the question asked, and production's
    /// traits ([benchmarks."NAME"] for one benchmark's own): recorded in the result and
    /// its red flags checked beside the run's findings (`plumb design check FILE`
    /// checks it without running).
    #[arg(long, value_name = "FILE.toml")]
    pub workload: Option<PathBuf>,
    /// Runs of the test, one after the other. Comparisons judge a percentile by the
    /// spread of the runs' own: run-to-run variation, which one run cannot show (one run
    /// per side compares as inconclusive).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeat: u32,
    /// Open loop at this many requests per second.
    #[arg(long, required_unless_present = "closed", conflicts_with = "closed")]
    pub rate: Option<Rate>,
    /// Closed loop with N connections instead (throughput; not user latency).
    #[arg(long, value_name = "N", value_parser = values::positive)]
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
    #[arg(long, default_value_t = 1, value_parser = values::count)]
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
    /// Print the per-second timeline.
    #[arg(long)]
    pub timeline: bool,
    /// Write latency.hgrm, service.hgrm (and lateness.hgrm) here.
    #[arg(long, value_name = "DIR")]
    pub hgrm_dir: Option<PathBuf>,
    /// Write the result (with whole histograms) as JSON.
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Write a self-contained HTML page with charts (as plumb report).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Write per-second latency histograms as an HdrHistogram interval log (.hlog).
    #[arg(long, value_name = "FILE")]
    pub hlog: Option<PathBuf>,
    #[command(flatten)]
    pub tls: TlsArgs,
    #[command(flatten)]
    pub save: SaveArgs,
    /// Start the schedule at this wall-clock time (Unix seconds, or RFC 3339 in UTC), so
    /// agents start together.
    #[arg(long, value_name = "UNIX_SECONDS", value_parser = plumb_model::quantity::parse_moment)]
    pub start_at: Option<plumb_model::quantity::Timestamp>,
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
    pub link: AgentLinkArgs,
    #[command(subcommand)]
    pub deploy: Option<LoadCommand>,
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
    pub max_body: plumb_model::quantity::ByteSize,
    /// After the measured window, wait at most this long (never past --timeout) for answers
    /// still in flight; those unanswered then count as errors.
    #[arg(long, default_value = "2s")]
    pub drain: Duration,
    /// The fraction of requests that may fail with the run still exiting 0: 0, the default,
    /// fails on any error; e.g. 0.1% or 0.001.
    #[arg(long, default_value = "0", value_name = "FRACTION", value_parser = plumb_model::quantity::parse_share)]
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
