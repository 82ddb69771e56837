//! How a result was produced: the levels every statistic uses, and each producer's own
//! settings as a typed record (not a free-form blob read back by key).

use crate::quantity::{ByteSize, Confidence, Duration, Fraction, Rate, Timestamp};
use serde::{Deserialize, Serialize};

/// Settings that decide how the statistics read, and how the samples were taken.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Confidence level of every interval and test.
    pub confidence: Confidence,
    /// Smallest effect size of interest.
    pub sesoi: Fraction,
    /// The question verdicts answer: which statistic they compare (the mean unless asked).
    #[serde(default, skip_serializing_if = "crate::Question::is_mean")]
    pub question: crate::Question,
    /// The producer and its settings.
    pub producer: ProducerSettings,
}

/// Each producer's settings. JSON: an object whose `producer` field names the variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "producer", rename_all = "kebab-case")]
pub enum ProducerSettings {
    /// `plumb run`.
    Commands(CommandSettings),
    /// plumb-bench, the in-process harness.
    InProcess(InProcessSettings),
    /// `plumb load`.
    Load(LoadSettings),
    /// `plumb merge` of load agents' results.
    Merged(MergedSettings),
    /// `plumb profile`.
    Profile(crate::ProfileSettings),
    /// A program's own in-situ timers (plumb-bench's `insitu`).
    InSitu(crate::InSituSettings),
    /// Another tool's export, read by plumb (`tool` names it): what it did not record is
    /// unknown.
    Imported { tool: String },
    /// A document of format version 1, whose options were a free-form record: kept as
    /// they were written.
    Version1 { options: serde_json::Value },
    /// Nothing recorded (tests, hand-made documents).
    None,
}

impl ProducerSettings {
    /// The settings of `plumb profile`, when it was the producer.
    pub fn profile(&self) -> Option<&crate::ProfileSettings> {
        match self {
            ProducerSettings::Profile(s) => Some(s),
            _ => None,
        }
    }
}

impl Settings {
    /// The default confidence and SESOI, for producers that make no verdicts of their
    /// own (profiles, in-situ regions).
    pub fn default_levels(producer: ProducerSettings) -> Settings {
        Settings {
            confidence: Confidence::DEFAULT,
            sesoi: Fraction::DEFAULT_SESOI,
            question: Default::default(),
            producer,
        }
    }
}

/// Order of commands within a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RoundOrder {
    Shuffle,
    RoundRobin,
    /// Two commands run at the same time, each on its own CPU (`duet_cpus`), a round
    /// being one such pair.
    Duet,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandSettings {
    /// Warm-up runs per command.
    pub warmup: u64,
    /// Exactly this many runs, when given; otherwise the adaptive bounds below.
    pub runs: Option<u64>,
    pub min_runs: u64,
    pub max_runs: Option<u64>,
    pub min_time: Duration,
    pub max_time: Option<Duration>,
    pub order: RoundOrder,
    /// The seed of a shuffled order (so a run can be replayed).
    pub seed: Option<u64>,
    /// The two CPUs a duet ran on: the first command on the first CPU in two pairs of
    /// every four, on the second in the other two, and started first in every other
    /// pair, so a difference between the CPUs or the order cancels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duet_cpus: Option<[usize; 2]>,
    /// The shell commands ran through, if any.
    pub shell: Option<String>,
    /// Where the commands' output went: `null`, `inherit` or a path.
    pub output: String,
    pub ignore_failure: bool,
    pub drop_outliers: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InProcessSettings {
    /// `monotonic` or `tsc`.
    pub clock: String,
    /// Warm-up to a steady state (false: cold samples on purpose).
    pub warmup: bool,
    pub warmup_cap: Duration,
    /// Samples per warm-up window.
    pub warmup_window: usize,
    /// Samples in the first `measure_time`.
    pub sample_count: usize,
    pub measure_time: Duration,
    /// Sampling goes on until the mean's interval is this tight (absent: fixed time).
    pub target_error: Option<Fraction>,
    pub max_measure_time: Duration,
    /// The shortest sample this clock allows (1000× its resolution or read cost).
    pub min_sample: Duration,
    pub subtract_overhead: bool,
    pub delta: bool,
    pub pin: Option<usize>,
    /// Whether the counting allocator was installed.
    pub allocations_counted: bool,
    /// Fresh processes per benchmark.
    pub launches: usize,
}

/// Open loop (a schedule of due times) or closed loop (connections back to back).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "kebab-case")]
pub enum LoadMode {
    Open {
        rate: Rate,
        max_in_flight: u64,
        /// Poisson arrivals from this seed (absent: constant intervals).
        poisson_seed: Option<u64>,
    },
    Closed {
        connections: u64,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadSettings {
    pub url: String,
    pub method: String,
    #[serde(flatten)]
    pub mode: LoadMode,
    pub duration: Duration,
    pub warmup: Duration,
    pub timeout: Duration,
    /// Wall-clock start of the schedule (agents started together).
    pub start_at: Option<Timestamp>,
    pub agent: Option<String>,
    pub spin: Duration,
    /// Generator threads (absent in results before 0.13: one).
    #[serde(default = "one")]
    pub threads: u32,
    /// Requests outstanding per connection (1: no pipelining).
    #[serde(default = "one")]
    pub pipeline: u32,
    /// The longest wait for answers after the measured window.
    #[serde(default)]
    pub drain: Option<Duration>,
    /// Answers with a larger body failed.
    #[serde(default)]
    pub max_body: Option<ByteSize>,
    /// The gates the exit code applied: the largest error fraction accepted, and
    /// whether a generator behind its schedule was accepted.
    #[serde(default)]
    pub max_error_rate: Option<f64>,
    #[serde(default)]
    pub allow_late: bool,
    /// The generator's lateness p99 above which it was behind (absent before 0.13: 5 ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_lateness: Option<Duration>,
    /// Runs of the test (`--repeat`): their spread is the run-to-run variation a
    /// comparison judges by.
    #[serde(default = "one")]
    pub repeat: u32,
    /// A second target loaded in turn with `url`, run by run (A B B A …), so that both
    /// see the same drift of the machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second_url: Option<String>,
    /// One connection per request (`--new-connection`): connect and handshake inside
    /// each latency. False: connections kept alive.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub new_connection: bool,
    /// https: how TLS was spoken and what the server agreed to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls: Option<Box<TlsSettings>>,
    /// HTTP/2 was asked (`--http2`): the connections that spoke it are counted in the
    /// result's connection setup (a server may offer only HTTP/1.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub http2: bool,
    /// One agent of several sharing one schedule (`--agents N --agent-index I`): `mode`'s
    /// rate is then the whole test's, this agent sending arrivals I, I + N, …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agents: Option<AgentShare>,
    /// A request mix (`--targets FILE`): `url` is then its first target's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mix: Option<Box<MixSettings>>,
    /// One agent of a coordinated test (`--coordinator`): its clock against the
    /// coordinator's. The result's wall-clock times (`start_at`, the measured window) are
    /// then on the coordinator's clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coordinated: Option<Box<AgentClock>>,
}

/// An agent's clock against its coordinator's, by NTP's on-wire method over their
/// connection (the round with the least round trip of several).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentClock {
    /// The coordinator, as the agent reached it.
    pub coordinator: String,
    /// The start (`LoadSettings::start_at`, the coordinator's clock) as this agent's own
    /// clock read it: the two differ by the clocks' offset.
    pub start_on_own_clock: Timestamp,
    /// The round trip the offset was measured over: the offset is true within half of it.
    pub round_trip: Duration,
}

/// An agent's share of a schedule shared by `count` agents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentShare {
    pub count: u32,
    /// 0 … count − 1.
    pub index: u32,
}

/// A request mix as a load test drew it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MixSettings {
    /// The targets file, as given.
    pub file: String,
    /// The seed of the draws: the same seed and threads draw the same sequence.
    pub seed: u64,
    pub targets: Vec<MixEntry>,
}

/// One target of a mix: its benchmark's name, weight and line in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MixEntry {
    pub name: String,
    pub weight: u64,
    pub line: usize,
}

/// TLS as a load test spoke it: what was asked and what the pre-load handshake found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TlsSettings {
    /// False with `--insecure`: every certificate was accepted, none checked.
    pub verified: bool,
    /// The CA file trusted instead of the system's roots (`--cacert`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cacert: Option<String>,
    /// A client certificate was presented (`--cert`/`--key`).
    #[serde(default)]
    pub client_certificate: bool,
    /// New connections resumed sessions (false: every handshake in full).
    pub resumption: bool,
    /// The protocol version agreed ("TLSv1.3").
    pub version: String,
    /// The application protocol ALPN chose, where one was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpn: Option<String>,
}

fn one() -> u32 {
    1
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MergedSettings {
    /// The files merged, as given.
    pub inputs: Vec<String>,
    /// Each agent's own settings, in the order of `inputs`.
    pub agents: Vec<ProducerSettings>,
    /// The agents were started together by `plumb coordinate`: the start it gave and
    /// what came of each agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coordination: Option<Box<Coordination>>,
}

/// A coordinated test as its coordinator saw it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Coordination {
    /// Where the coordinator listened.
    pub listen: String,
    /// The start it gave, on its own clock.
    pub start_at: Timestamp,
    /// Agents awaited (`--agents N`).
    pub count: u32,
    /// Each agent given the start, by index.
    pub agents: Vec<CoordinatedAgent>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoordinatedAgent {
    pub index: u32,
    pub name: String,
    /// Its address as the coordinator saw it.
    pub address: String,
    /// The start as its own clock read it (`start_at` minus its clock's offset), and the
    /// round trip that bounds the offset's error (half of it).
    pub start_on_own_clock: Timestamp,
    pub round_trip: Duration,
    /// Why it gave no result (its own failure, or lost: silent or disconnected); absent
    /// when its result is merged here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn producer_settings_are_tagged() {
        let s = Settings {
            confidence: Confidence::DEFAULT,
            sesoi: Fraction::DEFAULT_SESOI,
            question: Default::default(),
            producer: ProducerSettings::Load(LoadSettings {
                url: "http://x/".into(),
                method: "GET".into(),
                mode: LoadMode::Open {
                    rate: Rate::new(100.0).unwrap(),
                    max_in_flight: 10,
                    poisson_seed: None,
                },
                duration: Duration::from_secs(2),
                warmup: Duration::ZERO,
                timeout: Duration::from_secs(10),
                start_at: None,
                agent: None,
                spin: Duration::from_micros(100),
                threads: 1,
                pipeline: 1,
                drain: None,
                max_body: None,
                max_error_rate: None,
                allow_late: false,
                max_lateness: Some(Duration::from_millis(5)),
                repeat: 3,
                second_url: None,
                new_connection: false,
                tls: None,
                http2: false,
                agents: None,
                mix: None,
                coordinated: None,
            }),
        };
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(v["producer"]["producer"], "load");
        assert_eq!(v["producer"]["mode"], "open");
        assert_eq!(v["producer"]["rate"], 100.0);
        assert_eq!(v["producer"]["duration"], 2_000_000_000u64);
        assert_eq!(serde_json::from_value::<Settings>(v).unwrap(), s);
    }
}
