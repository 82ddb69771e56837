//! The TLS pieces plumb's network clients share — the load generator (`--insecure`,
//! the system's roots) and the PostgreSQL history store (libpq's `require`, its roots
//! when no `sslrootcert` is given) — so that what "not verified" means is written once.
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, Error, RootCertStore, SignatureScheme};
use std::sync::Arc;

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
