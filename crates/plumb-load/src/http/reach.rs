//! Before the test: every target's request serialised, every host resolved, connected
//! (the first host's connection kept for the test) and, over https, its certificate
//! checked by one handshake — so that a bad URL, an unreachable host or a refused
//! certificate stops the test with nothing sent.
use super::config::{LoadConfig, MixTarget};
use super::planned::{Host, PlannedTarget, TlsPlan};
use super::target::Target;
use super::tls::{self, Handshake};
use crate::LoadError;
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What every generator thread (and the capacity probe) shares: each target's request
/// and how its answers are read and retried, each host's address and TLS.
pub(super) struct Reached {
    pub targets: Arc<[PlannedTarget]>,
    pub hosts: Arc<[Host]>,
    /// Opened to the first host before the test so that an unreachable target is an
    /// error, not a run of failures; with how long its connect took.
    pub first: (TcpStream, Duration),
    /// https: what the first https host's handshake before the test agreed.
    pub tls: Option<Handshake>,
}

pub(super) fn reach(cfg: &LoadConfig) -> Result<Reached, LoadError> {
    let mut hosts: Vec<(String, Host)> = Vec::new();
    let mut targets = Vec::new();
    let mut first = None;
    let mut agreed = None;
    for spec in cfg.requests() {
        let target = Target::resolve(&spec.url)?;
        let key = format!("{}://{}:{}", target.tls, target.host, target.port);
        let host = match hosts.iter().position(|(k, _)| *k == key) {
            Some(h) => h,
            None => {
                let (mut stream, mut took, addr) = connect(&spec.url, &target.addrs, cfg.timeout)?;
                // HTTP/2 where asked: by prior knowledge on plain TCP, where ALPN agreed
                // it over TLS (else the host's connections speak HTTP/1.1).
                let (tls, h2) = match target.tls {
                    true => {
                        // A server that handshakes one connection at a time (openssl
                        // s_server, Python's ssl server) would wait on the idle kept
                        // connection while the check's handshake waited on it: the kept
                        // one is closed during the check and opened again after it.
                        drop(stream);
                        let (plan, handshake) = check_tls(cfg, &target, addr)?;
                        (stream, took, _) = connect(&spec.url, &[addr], cfg.timeout)?;
                        let h2 = cfg.http2 && handshake.alpn.as_deref() == Some("h2");
                        agreed.get_or_insert(handshake);
                        (Some(plan), h2)
                    }
                    false => (None, cfg.http2),
                };
                first.get_or_insert((stream, took));
                hosts.push((key, Host { addr, tls, h2 }));
                hosts.len() - 1
            }
        };
        targets.push(planned(cfg, &spec, &target, host)?);
    }
    Ok(Reached {
        targets: targets.into(),
        hosts: hosts.into_iter().map(|(_, h)| h).collect(),
        first: first.expect("a test has a target"),
        tls: agreed,
    })
}

/// One target's request, serialised once (`Connection: close` added for a new
/// connection per request, unless a Connection header is given).
fn planned(
    cfg: &LoadConfig,
    spec: &MixTarget,
    target: &Target,
    host: usize,
) -> Result<PlannedTarget, LoadError> {
    let mut headers = spec.headers.clone();
    let has_connection = headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("connection"));
    if cfg.new_connection && !has_connection {
        headers.push(("Connection".into(), "close".into()));
    }
    let request = super::request::encode(target, &spec.method, &headers, &spec.body)?;
    let h2_headers =
        super::h2::encode::header_block(target, &spec.method, &headers, spec.body.len());
    Ok(PlannedTarget {
        request: request.into(),
        h2_headers: h2_headers.into(),
        body: spec.body.clone().into(),
        idempotent: matches!(
            spec.method.as_str(),
            "GET" | "HEAD" | "PUT" | "DELETE" | "OPTIONS" | "TRACE"
        ),
        head: spec.method == "HEAD",
        host,
        weight: spec.weight,
    })
}

/// The first of a host's addresses that accepts a connection.
fn connect(
    url: &str,
    addrs: &[SocketAddr],
    timeout: Duration,
) -> Result<(TcpStream, Duration, SocketAddr), LoadError> {
    let mut last = String::new();
    for addr in addrs {
        let began = Instant::now();
        match TcpStream::connect_timeout(addr, timeout) {
            Ok(s) => return Ok((s, began.elapsed(), *addr)),
            Err(e) => last = format!("connect {addr}: {}", describe(&e)),
        }
    }
    Err(LoadError::Unreachable {
        url: url.to_string(),
        last,
    })
}

/// The TLS sessions' configuration, and one handshake before any load: a certificate
/// refused here stops the test with nothing sent.
fn check_tls(
    cfg: &LoadConfig,
    target: &Target,
    addr: SocketAddr,
) -> Result<(TlsPlan, Handshake), LoadError> {
    let config = tls::client_config(&cfg.tls)?;
    let name = tls::server_name(&target.host)?;
    let agreed = tls::check_handshake(addr, &target.host, config.clone(), cfg.timeout)?;
    Ok((TlsPlan { config, name }, agreed))
}

fn describe(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::ConnectionRefused => "connection refused".into(),
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => "timed out".into(),
        _ => e.to_string(),
    }
}
