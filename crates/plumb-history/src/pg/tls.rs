//! TLS to PostgreSQL as libpq's sslmode asks for it, with rustls: `prefer` and `require`
//! encrypt without verifying the server (libpq's meaning, said in the docs), `verify-ca`
//! checks the certificate's chain, `verify-full` its chain and host name; against
//! `sslrootcert` when given, else the system's roots.
use crate::pg_url::{StoreUrl, TlsMode};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::ring;
use rustls::SignatureScheme;
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, Error, RootCertStore};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, ServerName, UnixTime};
use std::sync::Arc;
use tokio_postgres_rustls::MakeRustlsConnect;

/// The connector for `url`'s TLS mode; an error names a root certificate file that
/// cannot be read.
pub fn connector(url: &StoreUrl) -> Result<MakeRustlsConnect, String> {
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
            .map_err(|e| format!("no root certificate to verify the server with: {e}"))?;
            if url.tls == TlsMode::VerifyCa {
                Arc::new(ChainOnly { webpki })
            } else {
                webpki
            }
        }
    };
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

/// `sslrootcert`'s certificates, else the system's.
fn roots(url: &StoreUrl) -> Result<RootCertStore, String> {
    let mut store = RootCertStore::empty();
    match &url.root_cert {
        Some(path) => {
            let certs = CertificateDer::pem_file_iter(path)
                .and_then(|i| i.collect::<Result<Vec<_>, _>>())
                .map_err(|e| format!("sslrootcert {}: {e}", path.display()))?;
            if certs.is_empty() {
                return Err(format!(
                    "sslrootcert {}: no certificate in it",
                    path.display()
                ));
            }
            store.add_parsable_certificates(certs);
        }
        None => {
            plumb_tls::add_system_roots(&mut store);
        }
    }
    Ok(store)
}

/// libpq's `verify-ca`: the chain must lead to a root; the name is not checked.
#[derive(Debug)]
struct ChainOnly {
    webpki: Arc<WebPkiServerVerifier>,
}

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        match self
            .webpki
            .verify_server_cert(end_entity, intermediates, server_name, ocsp, now)
        {
            Err(Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        self.webpki.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        self.webpki.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.webpki.supported_verify_schemes()
    }
}
