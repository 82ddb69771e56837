//! A load test's configuration: what is sent where, at what rate and how (the pacing, the
//! connections, TLS), as the caller asks for it.
use super::tls::TlsOptions;
use plumb_model::LoadMode;
use std::time::{Duration, SystemTime};

#[derive(Debug, Clone, PartialEq)]
pub enum Pacing {
    /// Requests due at `rate` per second (constant interval, or Poisson from a seed), at
    /// most `max_in_flight` outstanding: beyond that, requests wait for a connection and
    /// the wait shows in their latency and in the report's slot waits.
    Open {
        rate: f64,
        poisson_seed: Option<u64>,
        max_in_flight: usize,
    },
    /// `connections` clients sending back to back: throughput, not user latency.
    Closed { connections: usize },
}

/// The generator's mode from the one the result records.
impl From<&LoadMode> for Pacing {
    fn from(m: &LoadMode) -> Self {
        match *m {
            LoadMode::Open {
                rate,
                max_in_flight,
                poisson_seed,
            } => Pacing::Open {
                rate: rate.per_second(),
                poisson_seed,
                max_in_flight: max_in_flight as usize,
            },
            LoadMode::Closed { connections } => Pacing::Closed {
                connections: connections as usize,
            },
        }
    }
}

#[derive(Debug, Clone)]
pub struct LoadConfig {
    pub url: String,
    pub method: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub duration: Duration,
    pub warmup: Duration,
    pub timeout: Duration,
    /// After the measured window, answers still in flight are awaited this long at most
    /// (never longer than `timeout`).
    pub drain: Duration,
    pub mode: Pacing,
    /// Generator threads, each with its own connections, schedule share and recorder.
    pub threads: usize,
    /// Requests outstanding on one connection at once (1: no pipelining).
    pub pipeline: usize,
    /// Answers with a larger body fail (and close their connection).
    pub max_body: u64,
    /// Start the schedule at this wall-clock time (agents of one test agree on it).
    pub start_at: Option<SystemTime>,
    /// Write per-second latency histograms here as an HdrHistogram interval log.
    pub hlog: Option<std::path::PathBuf>,
    /// How long before each due time the loop stops sleeping and polls instead: longer
    /// is more punctual and costs more CPU. `DEFAULT_SPIN` by default.
    pub spin: Duration,
    /// How https is spoken (ignored for http://).
    pub tls: TlsOptions,
    /// One connection per request, closed after its answer (`Connection: close` sent
    /// unless a Connection header is given): connect and handshake inside each latency.
    pub new_connection: bool,
    /// A request mix (`--targets`), drawn per request by weight from `seed`; empty: the
    /// one request of `url`, `method`, `headers` and `body`.
    pub mix: Vec<MixTarget>,
    /// The mix's draws.
    pub seed: u64,
    /// HTTP/2 (ALPN `h2` on https, prior knowledge on http), `streams` a connection.
    pub http2: bool,
    pub streams: usize,
    /// This agent's share of a schedule shared by several (`--agents N --agent-index I`):
    /// `mode`'s rate is the whole test's.
    pub agents: Option<plumb_model::AgentShare>,
}

/// One request of a mix: what is sent, and its share by weight.
#[derive(Debug, Clone, PartialEq)]
pub struct MixTarget {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub weight: u64,
}

impl LoadConfig {
    /// Whether any request of the test speaks TLS (an `https://` target, as its URL
    /// parses).
    pub fn uses_tls(&self) -> bool {
        let tls = |url: &str| super::Target::parse(url).is_ok_and(|t| t.tls);
        if self.mix.is_empty() {
            tls(&self.url)
        } else {
            self.mix.iter().any(|t| tls(&t.url))
        }
    }

    /// Every request of the test: the mix, or the one request.
    pub fn requests(&self) -> Vec<MixTarget> {
        if !self.mix.is_empty() {
            return self.mix.clone();
        }
        vec![MixTarget {
            method: self.method.clone(),
            url: self.url.clone(),
            headers: self.headers.clone(),
            body: self.body.clone(),
            weight: 1,
        }]
    }
}

/// The default stretch of polling before each due time: enough to absorb a hypervisor's
/// wake-up latency, short enough to cost about a tenth of a core at 1,000 requests/s.
pub const DEFAULT_SPIN: Duration = Duration::from_micros(100);
