//! The options of coordinated load tests: `plumb coordinate`, and what `plumb load`
//! needs to join one (`--coordinator`, the token).
use clap::Args;
use plumb_model::quantity::Duration;
use std::path::PathBuf;

/// The shared token, for both sides. From a file or PLUMB_TOKEN it never shows in `ps`.
#[derive(Debug, Args, Clone)]
pub struct TokenArgs {
    /// A file holding the token shared by the coordinator and its agents (at least 16
    /// bytes; e.g. `head -c 32 /dev/urandom | base64 > token`). Else PLUMB_TOKEN.
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// The token itself: visible to every user of the machine in `ps`; prefer
    /// --token-file or PLUMB_TOKEN.
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
}

/// `plumb load --coordinator ADDR`: this agent joins a coordinated test.
#[derive(Debug, Args)]
pub struct AgentLinkArgs {
    /// Join the coordinated test of `plumb coordinate` at this address (host:port): it
    /// gives the start and gathers the results; the target, rate and duration stay this
    /// command's own (the coordinator only checks that every agent's agree). Needs
    /// --agents N and the shared token.
    #[arg(
        long,
        value_name = "HOST:PORT",
        requires = "agents",
        conflicts_with = "start_at"
    )]
    pub coordinator: Option<String>,
    /// How long to keep trying to reach the coordinator (it may start after the agents).
    #[arg(
        long,
        default_value = "60s",
        value_name = "TIME",
        requires = "coordinator"
    )]
    pub coordinator_wait: Duration,
    #[command(flatten)]
    pub token: TokenArgs,
}

#[derive(Debug, Args)]
pub struct CoordinateArgs {
    /// How many agents make up the test (each started with `plumb load ... --agents N
    /// --coordinator ADDR`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub agents: u32,
    /// Where to listen for agents. Loopback by default: give an address of this host's
    /// network (or 0.0.0.0:PORT) for agents on other machines.
    #[arg(long, default_value = "127.0.0.1:7207", value_name = "HOST:PORT")]
    pub listen: String,
    /// Where the merged result goes; each agent's own result is kept beside it
    /// (FILE.agent-I.json), so `plumb merge` can make it again.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// The start is given this long after the last agent is ready (enough for the start
    /// to reach every agent and each to open its first connection).
    #[arg(long, default_value = "3s", value_name = "TIME")]
    pub start_in: Duration,
    /// After the start, an agent that has sent nothing for this long is lost: the result
    /// is marked incomplete.
    #[arg(long, default_value = "3s", value_name = "TIME")]
    pub silence: Duration,
    /// Give up (exit 2, nothing sent) unless every agent has joined within this.
    #[arg(long, default_value = "10m", value_name = "TIME")]
    pub join_within: Duration,
    /// The largest uncertainty of an agent's clock offset (half its best round trip)
    /// accepted: the agents' starts are as far apart as their uncertainties at worst.
    #[arg(long, default_value = "20ms", value_name = "TIME")]
    pub max_skew: Duration,
    #[command(flatten)]
    pub token: TokenArgs,
}
