//! The target URL, parsed strictly: a load test must never load a different server than
//! the one written. An invalid port is refused (not replaced by 80 or 443), the default
//! port applies only when none is written, and IPv6 literals (`http://[::1]:8080/`) work.

use std::fmt;
use std::net::{SocketAddr, ToSocketAddrs};

/// Where requests go: a parsed and resolved `http://` or `https://` URL.
#[derive(Debug, Clone)]
pub struct Target {
    /// `https://`: TLS to the host, its certificate checked against `host`.
    pub tls: bool,
    /// The host as written, without brackets for an IPv6 literal.
    pub host: String,
    pub port: u16,
    /// The `Host` header: the authority as written (brackets and port included).
    pub host_header: String,
    /// The request line's target: path and query, `/` when the URL has none.
    pub path: String,
    pub addrs: Vec<SocketAddr>,
}

#[derive(Debug, PartialEq)]
pub enum TargetError {
    Unparsable { url: String, why: String },
    UnsupportedScheme(String),
    BadPort { url: String, port: String },
    Dns { host: String, error: String },
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetError::Unparsable { url, why } => write!(f, "{url:?} is not a URL: {why}"),
            TargetError::UnsupportedScheme(s) => write!(
                f,
                "scheme {s:?} is not supported (http:// or https://)"
            ),
            TargetError::BadPort { url, port } => write!(
                f,
                "{url:?} has an invalid port {port:?}: a port is a number from 1 to 65535 (leave it out for 80)"
            ),
            TargetError::Dns { host, error } => write!(f, "cannot resolve {host:?}: {error}"),
        }
    }
}

impl std::error::Error for TargetError {}

/// Whether `rest` (a URL after `://`) starts with `user:password@` where the password
/// holds a `/` (`http://u:p/w@host/`): the text before its last `@` (before any query)
/// has a `:` not followed by a port's digits.
fn has_credentials(rest: &str) -> bool {
    let before_query = &rest[..rest.find(['?', '#']).unwrap_or(rest.len())];
    let Some(at) = before_query.rfind('@') else {
        return false;
    };
    match before_query[..at].split_once(':') {
        Some((_, after)) if !before_query.starts_with('[') => {
            let port = after.split('/').next().unwrap_or("");
            port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit())
        }
        _ => false,
    }
}

impl Target {
    /// Parses `url` without touching the network.
    pub fn parse(url: &str) -> Result<Target, TargetError> {
        // Errors show the URL without a password: it may have one (refused below).
        let shown = plumb_model::redact::without_password(url);
        let bad = |why: &str| TargetError::Unparsable {
            url: shown.clone(),
            why: why.to_string(),
        };
        let (scheme, rest) = url
            .split_once("://")
            .ok_or_else(|| bad("no scheme (write http://host[:port]/path)"))?;
        let tls = if scheme.eq_ignore_ascii_case("https") {
            true
        } else if scheme.eq_ignore_ascii_case("http") {
            false
        } else {
            return Err(TargetError::UnsupportedScheme(scheme.to_string()));
        };
        let split = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(split);
        let path = tail.split('#').next().unwrap_or("");
        if path.bytes().any(|b| b <= b' ' || b == 0x7f) {
            return Err(bad("spaces or control characters in the path"));
        }
        let path = match path {
            "" => "/".to_string(),
            p if p.starts_with('?') => format!("/{p}"),
            p => p.to_string(),
        };
        if authority.contains('@') || has_credentials(rest) {
            return Err(bad(
                "credentials in the URL are not sent; pass -H 'Authorization: …' instead",
            ));
        }
        let (host, port) = split_host_port(authority, &bad)?;
        let port = match port {
            None if tls => 443,
            None => 80,
            Some(p) => match p.parse::<u16>() {
                Ok(n) if n > 0 && p.bytes().all(|b| b.is_ascii_digit()) => n,
                _ => {
                    return Err(TargetError::BadPort {
                        url: shown,
                        port: p.to_string(),
                    })
                }
            },
        };
        Ok(Target {
            tls,
            host: host.to_string(),
            port,
            host_header: authority.to_string(),
            path,
            addrs: Vec::new(),
        })
    }

    /// Parses and resolves `url` (blocking, once, before the test).
    pub fn resolve(url: &str) -> Result<Target, TargetError> {
        let mut t = Target::parse(url)?;
        let dns = |error: String| TargetError::Dns {
            host: t.host.clone(),
            error,
        };
        let addrs: Vec<SocketAddr> = (t.host.as_str(), t.port)
            .to_socket_addrs()
            .map_err(|e| dns(e.to_string()))?
            .collect();
        if addrs.is_empty() {
            return Err(dns("no addresses".into()));
        }
        t.addrs = addrs;
        Ok(t)
    }
}

/// `host[:port]` or `[v6][:port]`; the port as written, `None` when there is no colon.
/// `bad` makes the error of the URL this authority is from.
fn split_host_port<'a>(
    authority: &'a str,
    bad: &impl Fn(&str) -> TargetError,
) -> Result<(&'a str, Option<&'a str>), TargetError> {
    if authority.is_empty() {
        return Err(bad("no host"));
    }
    if let Some(inner) = authority.strip_prefix('[') {
        let (host, after) = inner
            .split_once(']')
            .ok_or_else(|| bad("an IPv6 literal without its closing ']'"))?;
        if host.parse::<std::net::Ipv6Addr>().is_err() {
            return Err(bad(&format!("[{host}] is not an IPv6 address")));
        }
        return match after {
            "" => Ok((host, None)),
            p => match p.strip_prefix(':') {
                Some(port) => Ok((host, Some(port))),
                None => Err(bad(&format!("unexpected {p:?} after the IPv6 literal"))),
            },
        };
    }
    match authority.split_once(':') {
        None => Ok((authority, None)),
        Some(("", _)) => Err(bad("no host")),
        Some((_, p)) if p.contains(':') => Err(bad(
            "more than one ':' (write an IPv6 address in brackets: http://[::1]:8080/)",
        )),
        Some((h, p)) => Ok((h, Some(p))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn port_of(url: &str) -> Result<u16, TargetError> {
        Target::parse(url).map(|t| t.port)
    }

    #[test]
    fn invalid_ports_are_refused_never_replaced_by_80() {
        for url in [
            "http://127.0.0.1:99999/",
            "http://127.0.0.1:18o80/",
            "http://127.0.0.1:65616/",
            "http://127.0.0.1:/",
            "http://127.0.0.1:0/",
            "http://127.0.0.1:+80/",
            "http://127.0.0.1: 80/",
            "http://[::1]:70000/",
        ] {
            match port_of(url) {
                Err(TargetError::BadPort { .. }) => {}
                other => panic!("{url}: {other:?}"),
            }
        }
        let e = port_of("http://127.0.0.1:99999/").unwrap_err().to_string();
        assert!(e.contains("invalid port \"99999\""), "{e}");
    }

    #[test]
    fn the_default_port_applies_only_when_none_is_written() {
        assert_eq!(port_of("http://example.com/").unwrap(), 80);
        assert_eq!(port_of("http://example.com").unwrap(), 80);
        assert_eq!(port_of("http://example.com:8080/x").unwrap(), 8080);
        assert_eq!(port_of("HTTP://example.com:1/").unwrap(), 1);
        assert_eq!(port_of("http://example.com:65535/").unwrap(), 65535);
        assert_eq!(port_of("https://example.com/").unwrap(), 443);
        assert_eq!(port_of("HTTPS://example.com:8443/").unwrap(), 8443);
        assert!(Target::parse("https://example.com/").unwrap().tls);
        assert!(!Target::parse("http://example.com/").unwrap().tls);
    }

    #[test]
    fn ipv6_literals_parse_and_keep_their_brackets_in_the_host_header() {
        let t = Target::parse("http://[::1]:18080/a?b=1").unwrap();
        assert_eq!((t.host.as_str(), t.port), ("::1", 18080));
        assert_eq!(t.host_header, "[::1]:18080");
        assert_eq!(t.path, "/a?b=1");
        let t = Target::parse("http://[fe80::1]/").unwrap();
        assert_eq!((t.host.as_str(), t.port), ("fe80::1", 80));
        assert!(Target::parse("http://[::1/").is_err());
        assert!(Target::parse("http://[nope]:80/").is_err());
        assert!(Target::parse("http://::1:80/").is_err());
        let r = Target::resolve("http://[::1]:18080/").unwrap();
        assert_eq!(r.addrs, vec!["[::1]:18080".parse().unwrap()]);
    }

    #[test]
    fn paths_queries_and_fragments() {
        assert_eq!(Target::parse("http://h").unwrap().path, "/");
        assert_eq!(Target::parse("http://h?q=1").unwrap().path, "/?q=1");
        assert_eq!(Target::parse("http://h/p#frag").unwrap().path, "/p");
        assert_eq!(Target::parse("http://h:81?q").unwrap().host_header, "h:81");
    }

    #[test]
    fn other_bad_urls_say_what_is_wrong() {
        let msg = |u: &str| Target::parse(u).unwrap_err().to_string();
        assert!(msg("127.0.0.1:8080").contains("no scheme"));
        assert!(msg("ftp://example.com/").contains("not supported"));
        assert!(msg("http:///x").contains("no host"));
        assert!(msg("http://u:p@h/").contains("credentials"));
        assert!(msg("http://h/a b").contains("spaces"));
        // A password, even one with '/' or '@' in it, is never repeated.
        for url in [
            "http://u:PW@h/",
            "http://u:P/W@h/",
            "http://u:P@W@h:x/",
            "https://u:PW@h:0/",
        ] {
            let m = msg(url);
            assert!(m.contains("credentials") && !m.contains('P'), "{m}");
        }
        // An '@' in a path after a port is not taken for credentials.
        assert_eq!(Target::parse("http://h:8080/a@b").unwrap().path, "/a@b");
        assert_eq!(Target::parse("http://[::1]:8080/a@b").unwrap().port, 8080);
        assert!(Target::resolve("http://no-such-host.invalid/")
            .unwrap_err()
            .to_string()
            .contains("cannot resolve"));
    }
}
