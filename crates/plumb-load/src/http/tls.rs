//! TLS for the load generator (issue 28), by rustls with ring (no OpenSSL to build): the
//! client configuration a test uses — the system's roots or `--cacert`, a client
//! certificate, ALPN, session resumption on or off, or `--insecure` (no verification,
//! said wherever a latency is) — and the blocking handshake made once before any load, so
//! that a certificate that is expired, for another name or from an unknown issuer is
//! refused naming which, with nothing sent.
use rustls::client::WebPkiServerVerifier;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::{CertificateError, ClientConfig, RootCertStore};
use std::fmt;
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How the generator speaks TLS.
#[derive(Debug, Clone, Default)]
pub struct TlsOptions {
    /// Trust only these certificates (PEM), instead of the system's roots.
    pub cacert: Option<PathBuf>,
    /// Accept any certificate (said in the output and the result).
    pub insecure: bool,
    /// A client certificate chain and its key (PEM).
    pub client_cert: Option<(PathBuf, PathBuf)>,
    /// ALPN protocols offered, most wanted first (`h2`, `http/1.1`).
    pub alpn: Vec<Vec<u8>>,
    /// Resume sessions on new connections (rustls's default cache), or do every
    /// handshake in full.
    pub resume: bool,
}

impl TlsOptions {
    /// The result's record of these options, with what the handshake before the test
    /// agreed.
    pub fn record(&self, agreed: &Handshake) -> plumb_model::TlsSettings {
        plumb_model::TlsSettings {
            verified: !self.insecure,
            cacert: self.cacert.as_ref().map(|p| p.display().to_string()),
            client_certificate: self.client_cert.is_some(),
            resumption: self.resume,
            version: agreed.version.clone(),
            alpn: agreed.alpn.clone(),
        }
    }
}

/// What a certificate was refused for.
#[derive(Debug, Clone, PartialEq)]
pub enum CertificateProblem {
    Expired,
    NotYetValid,
    /// For another host: the names it presents.
    WrongName {
        presented: Vec<String>,
    },
    /// Signed by an issuer no trusted root vouches for (a self-signed certificate
    /// among them: pass it with --cacert, or --insecure).
    UnknownIssuer,
    /// A CA certificate served as the server's own (what `openssl req -x509` makes) and
    /// not the one given with --cacert.
    CaUsedAsEndEntity,
    /// Its signature is not from the key of the certificate it names as its issuer: a
    /// certificate of the same name with another key was given or is trusted.
    BadSignature,
    Other(String),
}

#[derive(Debug)]
pub enum TlsError {
    /// A PEM file that could not be read or holds nothing usable.
    File {
        path: PathBuf,
        why: String,
    },
    /// The host is not a name a certificate can be checked against.
    Name {
        host: String,
    },
    /// rustls refused the configuration asked for.
    Config(String),
    Connect {
        addr: SocketAddr,
        cause: String,
    },
    /// The server's certificate was refused.
    Certificate {
        host: String,
        problem: CertificateProblem,
    },
    /// The handshake failed otherwise (an alert, a protocol mismatch).
    Handshake {
        host: String,
        cause: String,
    },
    /// The server answered the handshake in plain text: it speaks HTTP without TLS.
    NotTls {
        host: String,
    },
    /// No handshake within the timeout: the server stalled mid-handshake.
    Timeout {
        host: String,
        after: Duration,
    },
}

impl fmt::Display for TlsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TlsError::File { path, why } => write!(f, "{}: {why}", path.display()),
            TlsError::Name { host } => {
                write!(f, "{host:?} is not a host name or address TLS can verify")
            }
            TlsError::Config(why) => write!(f, "TLS configuration refused: {why}"),
            TlsError::Connect { addr, cause } => write!(f, "cannot connect to {addr}: {cause}"),
            TlsError::Certificate { host, problem } => {
                let what = match problem {
                    CertificateProblem::Expired => "has expired".to_string(),
                    CertificateProblem::NotYetValid => "is not valid yet".to_string(),
                    CertificateProblem::WrongName { presented } if presented.is_empty() => "is for another name".to_string(),
                    CertificateProblem::WrongName { presented } => format!("is for {}, not this host", presented.join(", ")),
                    CertificateProblem::UnknownIssuer => "is not trusted: signed by an unknown issuer (self-signed? give it, or its CA, with --cacert)".to_string(),
                    CertificateProblem::CaUsedAsEndEntity => "is not trusted: it is a CA certificate served as the server's own (what openssl req -x509 makes), and not one given with --cacert (give this very certificate with --cacert, or make a server certificate signed by the CA)".to_string(),
                    CertificateProblem::BadSignature => "is not trusted: its signature is not from the certificate trusted under its issuer's name (another key of the same name? give the server's own certificate, or its CA's, with --cacert)".to_string(),
                    CertificateProblem::Other(why) => format!("was refused: {why}"),
                };
                write!(f, "{host}'s certificate {what}; nothing was sent (--insecure skips the check, and says so)")
            }
            TlsError::Handshake { host, cause } => {
                write!(f, "TLS handshake with {host} failed: {cause}")
            }
            TlsError::NotTls { host } => write!(
                f,
                "{host} answered the TLS handshake in plain text: the server speaks HTTP without TLS there (use http://, or its TLS port); nothing was sent"
            ),
            TlsError::Timeout { host, after } => write!(
                f,
                "TLS handshake with {host} did not finish within {after:?}: the server stalled"
            ),
        }
    }
}

impl std::error::Error for TlsError {}

/// The client configuration for `o`.
pub fn client_config(o: &TlsOptions) -> Result<Arc<ClientConfig>, TlsError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::Config(e.to_string()))?;
    let builder = if o.insecure {
        builder
            .dangerous()
            .with_custom_certificate_verifier(plumb_tls::AnyCertificate::new(provider))
    } else if let Some(path) = &o.cacert {
        let given = certificates(path)?;
        let mut store = RootCertStore::empty();
        if store.add_parsable_certificates(given.clone()).0 == 0 {
            return Err(TlsError::File {
                path: path.clone(),
                why: "holds no usable certificate".into(),
            });
        }
        let webpki = WebPkiServerVerifier::builder_with_provider(Arc::new(store), provider)
            .build()
            .map_err(|e| TlsError::Config(e.to_string()))?;
        builder
            .dangerous()
            .with_custom_certificate_verifier(plumb_tls::WebPkiExcept::given(webpki, given))
    } else {
        let mut store = RootCertStore::empty();
        plumb_tls::add_system_roots(&mut store);
        builder.with_root_certificates(store)
    };
    let mut config = match &o.client_cert {
        Some((cert, key)) => {
            let chain = certificates(cert)?;
            let key = PrivateKeyDer::from_pem_file(key).map_err(|e| TlsError::File {
                path: key.clone(),
                why: format!("no private key: {e}"),
            })?;
            builder
                .with_client_auth_cert(chain, key)
                .map_err(|e| TlsError::Config(e.to_string()))?
        }
        None => builder.with_no_client_auth(),
    };
    config.alpn_protocols = o.alpn.clone();
    if !o.resume {
        config.resumption = rustls::client::Resumption::disabled();
    }
    Ok(Arc::new(config))
}

fn certificates(path: &std::path::Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    plumb_tls::pem_certificates(path).map_err(|e| TlsError::File {
        path: path.to_path_buf(),
        why: e.to_string(),
    })
}

/// The name a host's certificate must carry (an IP literal: its address, and no SNI).
pub fn server_name(host: &str) -> Result<ServerName<'static>, TlsError> {
    ServerName::try_from(host.to_string()).map_err(|_| TlsError::Name { host: host.into() })
}

/// What one handshake found.
#[derive(Debug, Clone, PartialEq)]
pub struct Handshake {
    /// "TLSv1.3", "TLSv1.2".
    pub version: String,
    /// The protocol ALPN chose, where one was.
    pub alpn: Option<String>,
    pub took: Duration,
}

/// One blocking handshake with `host` at `addr`, within `timeout`: what the test will
/// meet, or why it must not start.
pub fn check_handshake(
    addr: SocketAddr,
    host: &str,
    config: Arc<ClientConfig>,
    timeout: Duration,
) -> Result<Handshake, TlsError> {
    let start = Instant::now();
    let name = server_name(host)?;
    let mut tcp = TcpStream::connect_timeout(&addr, timeout).map_err(|e| TlsError::Connect {
        addr,
        cause: e.to_string(),
    })?;
    let mut conn =
        rustls::ClientConnection::new(config, name).map_err(|e| TlsError::Config(e.to_string()))?;
    while conn.is_handshaking() {
        let left = timeout
            .checked_sub(start.elapsed())
            .filter(|d| !d.is_zero());
        let Some(left) = left else {
            return Err(TlsError::Timeout {
                host: host.into(),
                after: timeout,
            });
        };
        let _ = tcp.set_read_timeout(Some(left));
        match conn.complete_io(&mut tcp) {
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Err(TlsError::Timeout {
                    host: host.into(),
                    after: timeout,
                });
            }
            Err(e) => return Err(handshake_error(host, e)),
        }
    }
    // The client's last handshake bytes, where rustls still holds them; never a read
    // (nothing more is due from the server until a request).
    while conn.wants_write() {
        if conn.write_tls(&mut tcp).is_err() {
            break;
        }
    }
    Ok(Handshake {
        version: conn
            .protocol_version()
            .map_or("?".into(), |v| format!("{v:?}").replace("TLSv1_", "TLSv1.")),
        alpn: conn
            .alpn_protocol()
            .map(|p| String::from_utf8_lossy(p).into_owned()),
        took: start.elapsed(),
    })
}

/// A handshake's I/O error: rustls's own (inside), classified.
fn handshake_error(host: &str, e: std::io::Error) -> TlsError {
    let inner = e
        .get_ref()
        .and_then(|i| i.downcast_ref::<rustls::Error>())
        .cloned();
    match inner {
        Some(rustls::Error::InvalidCertificate(c)) => TlsError::Certificate {
            host: host.into(),
            problem: problem(&c),
        },
        Some(rustls::Error::InvalidMessage(rustls::InvalidMessage::InvalidContentType)) => {
            TlsError::NotTls { host: host.into() }
        }
        Some(other) => TlsError::Handshake {
            host: host.into(),
            cause: other.to_string(),
        },
        None => TlsError::Handshake {
            host: host.into(),
            cause: e.to_string(),
        },
    }
}

/// rustls presents a certificate's names as `DnsName("api.example.com")`: the name.
fn bare_name(presented: &str) -> String {
    match (presented.find('"'), presented.rfind('"')) {
        (Some(a), Some(b)) if b > a => presented[a + 1..b].to_string(),
        _ => presented.to_string(),
    }
}

fn problem(c: &CertificateError) -> CertificateProblem {
    match c {
        CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
            CertificateProblem::Expired
        }
        CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
            CertificateProblem::NotYetValid
        }
        CertificateError::NotValidForName => CertificateProblem::WrongName {
            presented: Vec::new(),
        },
        CertificateError::NotValidForNameContext { presented, .. } => {
            CertificateProblem::WrongName {
                presented: presented.iter().map(|n| bare_name(n)).collect(),
            }
        }
        CertificateError::UnknownIssuer => CertificateProblem::UnknownIssuer,
        other if plumb_tls::is_ca_used_as_end_entity(other) => {
            CertificateProblem::CaUsedAsEndEntity
        }
        CertificateError::BadSignature => CertificateProblem::BadSignature,
        other => CertificateProblem::Other(format!("{other:?}")),
    }
}

#[cfg(test)]
mod tests;
