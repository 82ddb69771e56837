//! TLS to PostgreSQL as libpq's sslmode asks for it, with rustls: `prefer` and `require`
//! encrypt without verifying the server (libpq's meaning, said in the docs), `verify-ca`
//! checks the certificate's chain, `verify-full` its chain and host name; against
//! `sslrootcert` when given, else the system's roots.
use crate::pg_url::{StoreUrl, TlsMode};
use rustls::client::danger::ServerCertVerifier;
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::ring;
use rustls::{ClientConfig, RootCertStore};
use std::sync::Arc;
use tokio_postgres_rustls::MakeRustlsConnect;

/// Why the TLS connector could not be made.
#[derive(Debug)]
pub enum NoTls {
    /// `sslrootcert`'s file gave no certificate.
    RootCert(std::path::PathBuf, plumb_tls::PemError),
    /// No root certificate to verify the server with.
    NoRoots(rustls::client::VerifierBuilderError),
    /// rustls refused the configuration.
    Config(rustls::Error),
}

impl std::fmt::Display for NoTls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoTls::RootCert(path, e) => write!(f, "sslrootcert {}: {e}", path.display()),
            NoTls::NoRoots(e) => write!(f, "no root certificate to verify the server with: {e}"),
            NoTls::Config(e) => e.fmt(f),
        }
    }
}

/// The connector for `url`'s TLS mode; an error names a root certificate file that
/// cannot be read.
pub fn connector(url: &StoreUrl) -> Result<MakeRustlsConnect, NoTls> {
    let provider = Arc::new(ring::default_provider());
    let verifier: Arc<dyn ServerCertVerifier> = match url.tls {
        // libpq's `require`: any certificate, the handshake's signatures still checked.
        TlsMode::Disable | TlsMode::Prefer | TlsMode::Require => {
            plumb_tls::AnyCertificate::new(provider.clone())
        }
        TlsMode::VerifyCa | TlsMode::VerifyFull => {
            let webpki = WebPkiServerVerifier::builder_with_provider(
                Arc::new(roots(url)?),
                provider.clone(),
            )
            .build()
            .map_err(NoTls::NoRoots)?;
            if url.tls == TlsMode::VerifyCa {
                plumb_tls::WebPkiExcept::chain_only(webpki)
            } else {
                webpki
            }
        }
    };
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(NoTls::Config)?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

/// `sslrootcert`'s certificates, else the system's.
fn roots(url: &StoreUrl) -> Result<RootCertStore, NoTls> {
    let mut store = RootCertStore::empty();
    match &url.root_cert {
        Some(path) => {
            let certs =
                plumb_tls::pem_certificates(path).map_err(|e| NoTls::RootCert(path.clone(), e))?;
            store.add_parsable_certificates(certs);
        }
        None => {
            plumb_tls::add_system_roots(&mut store);
        }
    }
    Ok(store)
}
