//! The pre-load handshake against real rustls servers made here, with certificates made
//! here (rcgen): a valid one trusted through --cacert, an expired one, one for another
//! name, one from an issuer the system does not know, --insecure, and a server that
//! accepts the connection and never answers.
use super::*;
use rcgen::{date_time_ymd, BasicConstraints, Certificate, CertificateParams, IsCa, KeyPair};
use rustls::pki_types::PrivatePkcs8KeyDer;
use std::net::TcpListener;

fn ca() -> (Certificate, KeyPair) {
    let mut p = CertificateParams::new(Vec::<String>::new()).unwrap();
    p.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let key = KeyPair::generate().unwrap();
    (p.self_signed(&key).unwrap(), key)
}

/// A server certificate for `names` signed by the CA; `expired`: valid only in 2020.
fn leaf(names: &[&str], ca: &(Certificate, KeyPair), expired: bool) -> (Certificate, KeyPair) {
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let mut p = CertificateParams::new(names).unwrap();
    if expired {
        p.not_before = date_time_ymd(2020, 1, 1);
        p.not_after = date_time_ymd(2020, 12, 31);
    }
    let key = KeyPair::generate().unwrap();
    (p.signed_by(&key, &ca.0, &ca.1).unwrap(), key)
}

/// A TLS server on loopback answering handshakes with `cert` (ALPN h2 and http/1.1).
fn serve(cert: &(Certificate, KeyPair)) -> SocketAddr {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(cert.1.serialize_der()));
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![cert.0.der().clone()], key)
        .unwrap();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    let config = Arc::new(config);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut tcp) = stream else { continue };
            let mut conn = rustls::ServerConnection::new(config.clone()).unwrap();
            while conn.is_handshaking() && conn.complete_io(&mut tcp).is_ok() {}
            let _ = conn.complete_io(&mut tcp);
        }
    });
    addr
}

fn options(cacert: Option<&std::path::Path>) -> TlsOptions {
    TlsOptions {
        cacert: cacert.map(|p| p.to_path_buf()),
        alpn: vec![b"http/1.1".to_vec()],
        resume: false,
        ..TlsOptions::default()
    }
}

fn handshake(addr: SocketAddr, o: &TlsOptions) -> Result<Handshake, TlsError> {
    check_handshake(addr, "localhost", client_config(o)?, Duration::from_secs(5))
}

#[test]
fn each_certificate_problem_is_named_and_a_good_one_passes() {
    let dir = tempfile::tempdir().unwrap();
    let ca = ca();
    let ca_pem = dir.path().join("ca.pem");
    std::fs::write(&ca_pem, ca.0.pem()).unwrap();
    let trusted = options(Some(&ca_pem));

    let good = serve(&leaf(&["localhost"], &ca, false));
    let h = handshake(good, &trusted).unwrap();
    assert_eq!(h.version, "TLSv1.3");
    assert_eq!(h.alpn.as_deref(), Some("http/1.1"));

    let expired = serve(&leaf(&["localhost"], &ca, true));
    let e = handshake(expired, &trusted).unwrap_err();
    assert!(
        matches!(
            e,
            TlsError::Certificate {
                problem: CertificateProblem::Expired,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .contains("localhost's certificate has expired; nothing was sent"),
        "{e}"
    );

    let other = serve(&leaf(&["other.example"], &ca, false));
    let e = handshake(other, &trusted).unwrap_err();
    let TlsError::Certificate {
        problem: CertificateProblem::WrongName { presented },
        ..
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!(presented, &["other.example"], "the bare names");

    // The system's roots do not know this CA.
    let e = handshake(good, &options(None)).unwrap_err();
    assert!(
        matches!(
            e,
            TlsError::Certificate {
                problem: CertificateProblem::UnknownIssuer,
                ..
            }
        ),
        "{e:?}"
    );

    // --insecure takes even the expired one.
    let insecure = TlsOptions {
        insecure: true,
        ..options(None)
    };
    assert!(handshake(expired, &insecure).is_ok());
}

#[test]
fn a_server_that_stalls_mid_handshake_times_out() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let _held: Vec<_> = listener.incoming().take(1).collect();
        std::thread::sleep(Duration::from_secs(5));
    });
    let config = client_config(&TlsOptions {
        insecure: true,
        ..TlsOptions::default()
    })
    .unwrap();
    let start = Instant::now();
    let e = check_handshake(addr, "localhost", config, Duration::from_millis(300)).unwrap_err();
    assert!(matches!(e, TlsError::Timeout { .. }), "{e:?}");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn unreadable_or_empty_pem_files_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.pem");
    let e = client_config(&options(Some(&missing)))
        .unwrap_err()
        .to_string();
    assert!(e.contains("none.pem") && e.contains("cannot read"), "{e}");
    let empty = dir.path().join("empty.pem");
    std::fs::write(&empty, "").unwrap();
    let e = client_config(&options(Some(&empty)))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("empty.pem") && e.contains("no certificate"),
        "{e}"
    );
}
