//! The options of coordinated load tests: `plumb coordinate`'s, and what `plumb load`
//! needs to join one (`--coordinator`, the shared token); the token read and the
//! coordinator joined from them.
use crate::agents::auth::Token;
use crate::agents::coordinator::Options;
use crate::agents::side::AgentSide;
use crate::agents::terms::Terms;
use crate::agents::{token_from, AgentError, NoToken};
use crate::http::LoadConfig;
use clap::Args;
use plumb_model::quantity::Duration;
use plumb_model::LoadSettings;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// The shared token, for both sides. From a file or PLUMB_TOKEN it never shows in `ps`.
#[derive(Debug, Args, Clone)]
pub struct TokenFlags {
    /// A file holding the token shared by the coordinator and its agents (at least 16
    /// bytes; e.g. `head -c 32 /dev/urandom | base64 > token`). Else PLUMB_TOKEN.
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// The token itself: visible to every user of the machine in `ps`; prefer
    /// --token-file or PLUMB_TOKEN.
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
}

impl TokenFlags {
    /// The token from `--token-file`, `--token` (said through `say`) or `env`
    /// (PLUMB_TOKEN's value).
    pub fn token(
        &self,
        env: Option<String>,
        say: &mut dyn FnMut(String),
    ) -> Result<Token, NoToken> {
        token_from(self.token_file.as_deref(), self.token.as_deref(), env, say)
    }
}

/// `plumb load --coordinator ADDR`: this agent joins a coordinated test. Flattened into
/// `LoadOptions` only: its relations name `--agents` and `--start-at`, which are there.
#[derive(Debug, Args)]
pub struct AgentLink {
    /// Join the coordinated test of `plumb coordinate` at this address (host:port): it
    /// gives the start and gathers the results; the target, rate and duration stay this
    /// command's own (the coordinator only checks that every agent's agree). Needs
    /// --agents N and the shared token.
    #[arg(
        long,
        value_name = "HOST:PORT",
        requires = "agents",
        conflicts_with = "start_at",
        value_parser = host_port
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
    pub token: TokenFlags,
}

/// `--coordinator`'s value that is not HOST:PORT.
#[derive(Debug)]
pub struct NotHostPort(String);

impl fmt::Display for NotHostPort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not HOST:PORT (a name or an address, and a port from 1 to 65535, e.g. 10.0.0.2:7207)", self.0)
    }
}

impl std::error::Error for NotHostPort {}

/// HOST:PORT, checked before anything is tried: a name or an address without spaces,
/// and a port from 1 to 65535 (whether the name resolves is found by trying, since the
/// coordinator's name may appear only after the agents start).
fn host_port(text: &str) -> Result<String, NotHostPort> {
    let ok = text.rsplit_once(':').is_some_and(|(host, port)| {
        !host.is_empty()
            && !host.contains(char::is_whitespace)
            && port.parse::<u16>().is_ok_and(|p| p > 0)
    });
    ok.then(|| text.to_string())
        .ok_or_else(|| NotHostPort(text.to_string()))
}

/// Why an agent did not join its coordinator; nothing was sent.
#[derive(Debug)]
pub enum JoinError {
    Token(NoToken),
    /// `--coordinator` without `--agents N`.
    NoShare,
    Join(AgentError),
}

impl fmt::Display for JoinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JoinError::Token(e) => e.fmt(f),
            JoinError::NoShare => f.write_str("--coordinator needs --agents N"),
            JoinError::Join(e) => write!(f, "{e}; nothing was sent to the target"),
        }
    }
}

impl std::error::Error for JoinError {}

impl AgentLink {
    /// Joins the coordinator named by `--coordinator`, if any, on the terms of `target`
    /// (the test's first), with `threads` generator threads; `env` is PLUMB_TOKEN's value.
    pub fn join(
        &self,
        (config, settings): &(LoadConfig, LoadSettings),
        (threads, env): (u32, Option<String>),
        stop: &AtomicBool,
        say: &mut dyn FnMut(String),
    ) -> Result<Option<AgentSide>, JoinError> {
        let Some(addr) = &self.coordinator else {
            return Ok(None);
        };
        let token = self.token.token(env, say).map_err(JoinError::Token)?;
        let terms = Terms::for_test(config, settings).ok_or(JoinError::NoShare)?;
        let wait = (self.coordinator_wait.to_std(), threads as usize);
        let side = AgentSide::join(addr, (&token, &terms), wait, stop, say);
        side.map(Some).map_err(JoinError::Join)
    }
}

/// `plumb coordinate`'s options, but where the merged result goes.
#[derive(Debug, Args)]
pub struct CoordinateOptions {
    /// How many agents make up the test (each started with `plumb load ... --agents N
    /// --coordinator ADDR`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub agents: u32,
    /// Where to listen for agents. Loopback by default: give an address of this host's
    /// network (or 0.0.0.0:PORT) for agents on other machines.
    #[arg(long, default_value = "127.0.0.1:7207", value_name = "HOST:PORT")]
    pub listen: String,
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
    pub token: TokenFlags,
}

impl CoordinateOptions {
    /// The coordinator's terms.
    pub fn coordinator(&self) -> Options {
        Options {
            count: self.agents,
            lead: self.start_in.to_std(),
            silence: self.silence.to_std(),
            join_within: Some(self.join_within.to_std()),
            max_uncertainty: self.max_skew.to_std(),
        }
    }
}
