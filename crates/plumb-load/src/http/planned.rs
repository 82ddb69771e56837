//! What a test sends and where, prepared before it starts: each request serialised once,
//! each host with its address and TLS (made by `reach.rs`, used by the engine and its
//! connections).
use std::net::SocketAddr;
use std::sync::Arc;

/// One request of the test (of its mix), serialised once: as HTTP/1.1 bytes, and as an
/// HTTP/2 header block and body.
pub struct PlannedTarget {
    pub request: Arc<[u8]>,
    pub h2_headers: Arc<[u8]>,
    pub body: Arc<[u8]>,
    pub idempotent: bool,
    pub head: bool,
    /// Its host: an index into `Plan::hosts`.
    pub host: usize,
    /// Its share of requests relative to the others'.
    pub weight: u64,
}

/// A host requests go to: its address, TLS for https, and whether its connections speak
/// HTTP/2 (asked, and agreed by ALPN over TLS).
#[derive(Clone)]
pub struct Host {
    pub addr: SocketAddr,
    pub tls: Option<TlsPlan>,
    pub h2: bool,
}

/// What every TLS connection of a test shares: the configuration (roots, ALPN, the
/// session cache) and the name the server's certificate must carry (and SNI sends).
#[derive(Clone)]
pub struct TlsPlan {
    pub config: Arc<rustls::ClientConfig>,
    pub name: rustls::pki_types::ServerName<'static>,
}
