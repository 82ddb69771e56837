//! HTTP/2 for the load generator (`--http2`; ALPN `h2` over TLS, prior knowledge over
//! plain TCP): the frames (`frame`), each request's header block encoded once
//! (`encode`), the answers' header blocks decoded (`hpack`), and one connection's state
//! (`session`), driven by the same event loop and
//! connections as HTTP/1.1.
pub mod encode;
pub mod frame;
pub mod hpack;
pub mod session;

pub use session::H2;
