//! The TLS pieces plumb's network clients share — the load generator (`--insecure`,
//! `--cacert`, the system's roots) and the PostgreSQL history store (libpq's `require`,
//! `verify-ca`, `sslrootcert`) — so that what "not verified" and "verified" mean, and
//! how a PEM file is read, are written once: every certificate verifier plumb has is here.
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, Error, RootCertStore, SignatureScheme};
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// Why a PEM file gave no certificates.
#[derive(Debug)]
pub enum PemError {
    /// The file could not be read.
    Read(rustls::pki_types::pem::Error),
    /// It holds something that is not a PEM certificate.
    NotPem(rustls::pki_types::pem::Error),
    /// It holds no certificate at all.
    Empty,
}

impl fmt::Display for PemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PemError::Read(e) => write!(f, "cannot read: {e}"),
            PemError::NotPem(e) => write!(f, "not PEM certificates: {e}"),
            PemError::Empty => f.write_str("holds no certificate"),
        }
    }
}

impl std::error::Error for PemError {}

/// The certificates of the PEM file at `path`: at least one.
pub fn pem_certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, PemError> {
    let certs = CertificateDer::pem_file_iter(path)
        .map_err(PemError::Read)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(PemError::NotPem)?;
    if certs.is_empty() {
        return Err(PemError::Empty);
    }
    Ok(certs)
}

/// webpki's verification of the chain to the roots, with the one refusal a setting lets
/// pass: libpq's `verify-ca` (the chain must lead to a root; the name is not checked), or
/// `--cacert`'s certificate given exactly — what `openssl req -x509` makes, a CA
/// certificate (CA:TRUE) served as the server's own — trusted as the server's own, as
/// curl and oha trust it: webpki refuses a CA as an end entity only after finding it
/// valid now, so what is left to check is that it is for this host (and the handshake's
/// signature, checked as always, proves the server holds its key).
#[derive(Debug)]
pub struct WebPkiExcept {
    webpki: Arc<WebPkiServerVerifier>,
    except: Except,
}

#[derive(Debug)]
enum Except {
    /// Any name (`verify-ca`).
    Name,
    /// One of these certificates served as the server's own.
    Given(Vec<CertificateDer<'static>>),
}

impl WebPkiExcept {
    /// libpq's `verify-ca`: the chain, not the name.
    pub fn chain_only(webpki: Arc<WebPkiServerVerifier>) -> Arc<WebPkiExcept> {
        let except = Except::Name;
        Arc::new(WebPkiExcept { webpki, except })
    }

    /// `--cacert`: the chain to a certificate given, or one given served itself.
    pub fn given(
        webpki: Arc<WebPkiServerVerifier>,
        given: Vec<CertificateDer<'static>>,
    ) -> Arc<WebPkiExcept> {
        let except = Except::Given(given);
        Arc::new(WebPkiExcept { webpki, except })
    }
}

/// Whether webpki refused a certificate for being a CA's (rustls carries webpki's
/// `CaUsedAsEndEntity` as an opaque `Other`, named only in its debug form).
pub fn is_ca_used_as_end_entity(e: &CertificateError) -> bool {
    format!("{e:?}").contains("CaUsedAsEndEntity")
}

impl ServerCertVerifier for WebPkiExcept {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        let verified =
            self.webpki
                .verify_server_cert(end_entity, intermediates, server_name, ocsp, now);
        let Err(Error::InvalidCertificate(e)) = &verified else {
            return verified;
        };
        match &self.except {
            Except::Name
                if matches!(
                    e,
                    CertificateError::NotValidForName
                        | CertificateError::NotValidForNameContext { .. }
                ) =>
            {
                Ok(ServerCertVerified::assertion())
            }
            Except::Given(given)
                if is_ca_used_as_end_entity(e)
                    && given.iter().any(|g| g.as_ref() == end_entity.as_ref()) =>
            {
                let parsed = rustls::server::ParsedCertificate::try_from(end_entity)?;
                rustls::client::verify_server_name(&parsed, server_name)?;
                Ok(ServerCertVerified::assertion())
            }
            _ => verified,
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

/// Adds the system's root certificates (those that parse) to `store`; how many it added.
pub fn add_system_roots(store: &mut RootCertStore) -> usize {
    store
        .add_parsable_certificates(rustls_native_certs::load_native_certs().certs)
        .0
}

/// A verifier that accepts any server certificate — nothing proves who the server is —
/// while the handshake's own signatures are still checked with `provider`'s algorithms,
/// so the session is at least with the holder of the certificate presented.
#[derive(Debug)]
pub struct AnyCertificate {
    provider: Arc<CryptoProvider>,
}

impl AnyCertificate {
    pub fn new(provider: Arc<CryptoProvider>) -> Arc<AnyCertificate> {
        Arc::new(AnyCertificate { provider })
    }
}

impl ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        let schemes = &self.provider.signature_verification_algorithms;
        verify_tls12_signature(message, cert, dss, schemes)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        let schemes = &self.provider.signature_verification_algorithms;
        verify_tls13_signature(message, cert, dss, schemes)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_certificate_is_accepted_and_the_signature_schemes_are_the_providers() {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let v = AnyCertificate::new(provider.clone());
        let junk = CertificateDer::from(vec![0u8; 8]);
        let name = ServerName::try_from("example.com").unwrap();
        assert!(v
            .verify_server_cert(&junk, &[], &name, &[], UnixTime::now())
            .is_ok());
        assert_eq!(
            v.supported_verify_schemes(),
            provider
                .signature_verification_algorithms
                .supported_schemes()
        );
        let mut store = RootCertStore::empty();
        assert_eq!(add_system_roots(&mut store), store.len());
    }
}
