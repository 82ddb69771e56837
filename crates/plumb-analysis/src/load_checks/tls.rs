//! The load check of how https was spoken: a test whose certificate was never checked
//! (`--insecure`) says so beside every figure, since nothing proved which server answered.
use plumb_model::finding::TlsNotVerified;
use plumb_model::{Diagnostic, LoadSettings, Severity};

pub fn unverified(s: &LoadSettings) -> Option<Diagnostic> {
    let tls = s.tls.as_ref()?;
    (!tls.verified)
        .then(|| Diagnostic::new(Severity::Warning, TlsNotVerified { url: s.url.clone() }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{DiagnosticCode, TlsSettings};

    #[test]
    fn only_an_unverified_https_test_is_flagged() {
        let mut s: LoadSettings = serde_json::from_value(serde_json::json!({
            "url": "https://localhost:8443/", "method": "GET", "mode": "open",
            "rate": 100.0, "max_in_flight": 8, "poisson_seed": null,
            "duration": 1_000_000_000u64, "warmup": 0, "timeout": 1_000_000_000u64,
            "spin": 100_000,
        }))
        .unwrap();
        assert!(unverified(&s).is_none(), "http: no TLS, nothing to say");
        let tls = TlsSettings {
            verified: true,
            cacert: None,
            client_certificate: false,
            resumption: true,
            version: "TLSv1.3".into(),
            alpn: Some("http/1.1".into()),
        };
        s.tls = Some(Box::new(tls.clone()));
        assert!(unverified(&s).is_none());
        s.tls = Some(Box::new(TlsSettings {
            verified: false,
            ..tls
        }));
        let d = unverified(&s).unwrap();
        assert_eq!(
            (d.code(), d.severity),
            (DiagnosticCode::TlsNotVerified, Severity::Warning)
        );
    }
}
