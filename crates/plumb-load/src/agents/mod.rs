//! Agents of one load test and their coordinator (issue 29): the wire between them
//! (`wire`: bounded, length-prefixed frames) and how each proves it holds the shared
//! token without sending it (`auth`). The coordinator and the agent's side are built on
//! these (docs/agents-notes.md).
pub mod auth;
pub mod wire;
