//! Agents of one load test and their coordinator (issue 29): the wire between them
//! (`wire`: bounded, length-prefixed frames), how each proves it holds the shared token
//! without sending it (`auth`), the messages (`messages`), what agents must agree on
//! (`terms`), the clock offset between them (`clock`); the agent's side (`agent`, then
//! `uplink` while the test runs) and the coordinator's (`coordinator`, a thread per
//! connection in `serve`). docs/agents-notes.md has the protocol.
pub mod agent;
pub mod auth;
pub mod clock;
pub mod coordinator;
mod error;
pub mod k8s;
pub mod live;
pub mod messages;
mod serve;
pub mod side;
pub mod terms;
mod token_source;
pub mod uplink;
pub mod wire;

pub use error::AgentError;
pub use token_source::{token_from, NoToken};
