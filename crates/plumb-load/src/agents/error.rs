//! What can go wrong between an agent and its coordinator, said for the user.
use super::auth::AuthError;
use super::messages::MessageError;
use plumb_model::format;
use std::fmt;
use std::time::Duration;

#[derive(Debug)]
pub enum AgentError {
    /// No connection to the coordinator within the wait.
    Unreachable {
        addr: String,
        waited: Duration,
        cause: String,
    },
    /// The token was refused, or the peer could not prove it.
    Auth(AuthError),
    /// The coordinator refused this agent, and said why.
    Refused(String),
    /// The two sides do not speak the same protocol.
    Protocol(String),
    Wire(MessageError),
    Io {
        addr: String,
        cause: String,
    },
    /// Connected, and nothing came back within `waited`.
    Silent {
        addr: String,
        waited: Duration,
    },
    /// Connected, and what came back is not a plumb coordinator's hello.
    NotCoordinator {
        addr: String,
    },
    /// Ctrl-C while waiting.
    Stopped,
}

impl AgentError {
    pub fn io(addr: &str) -> impl Fn(std::io::Error) -> AgentError + '_ {
        move |e| AgentError::Io {
            addr: addr.to_string(),
            cause: e.to_string(),
        }
    }
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::Unreachable {
                addr,
                waited,
                cause,
            } => write!(
                f,
                "cannot reach the coordinator at {addr} (tried for {}; last: {cause})",
                format::time(plumb_model::quantity::Duration::from(*waited))
            ),
            AgentError::Auth(AuthError::Refused) => f.write_str(
                "the coordinator did not prove the token: it is not ours, or the tokens differ",
            ),
            AgentError::Auth(e) => write!(f, "{e}"),
            AgentError::Refused(reason) => {
                write!(f, "the coordinator refused this agent: {reason}")
            }
            AgentError::Protocol(e) => write!(f, "{e}"),
            AgentError::Wire(e) => write!(f, "the connection to the coordinator failed: {e}"),
            AgentError::Io { addr, cause } => write!(f, "the coordinator at {addr}: {cause}"),
            AgentError::Silent { addr, waited } => write!(
                f,
                "nothing at {addr} answered as a plumb coordinator within {} (is it `plumb coordinate`?)",
                format::time(plumb_model::quantity::Duration::from(*waited))
            ),
            AgentError::NotCoordinator { addr } => {
                write!(f, "{addr} answered, but not as a plumb coordinator")
            }
            AgentError::Stopped => f.write_str("stopped before the start"),
        }
    }
}

impl std::error::Error for AgentError {}

impl From<AuthError> for AgentError {
    fn from(e: AuthError) -> Self {
        AgentError::Auth(e)
    }
}

impl From<MessageError> for AgentError {
    fn from(e: MessageError) -> Self {
        AgentError::Wire(e)
    }
}

impl From<super::wire::WireError> for AgentError {
    fn from(e: super::wire::WireError) -> Self {
        AgentError::Wire(MessageError::Wire(e))
    }
}
