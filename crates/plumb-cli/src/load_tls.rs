//! `plumb load`'s TLS options (https): what is trusted, the client certificate, and
//! `--insecure`; turned into the generator's options and the result's record.
use clap::Args;
use plumb_load::http::tls::{Handshake, TlsOptions};
use plumb_model::TlsSettings;
use std::path::PathBuf;

#[derive(Debug, Args, Default)]
#[command(next_help_heading = "HTTPS")]
pub struct TlsArgs {
    /// Trust the certificates in this PEM file (a private CA, a self-signed server)
    /// instead of the system's roots.
    #[arg(long, value_name = "FILE")]
    pub cacert: Option<PathBuf>,
    /// Accept any server certificate: the connection is encrypted but nobody checked
    /// which server answered. Said beside every figure and in the result.
    #[arg(short = 'k', long)]
    pub insecure: bool,
    /// A client certificate chain (PEM) to present, with --key.
    #[arg(long, value_name = "FILE", requires = "key")]
    pub cert: Option<PathBuf>,
    /// The client certificate's private key (PEM), with --cert.
    #[arg(long, value_name = "FILE", requires = "cert")]
    pub key: Option<PathBuf>,
}

impl TlsArgs {
    /// The generator's TLS options (HTTP/1.1 offered by ALPN).
    pub fn options(&self) -> TlsOptions {
        TlsOptions {
            cacert: self.cacert.clone(),
            insecure: self.insecure,
            client_cert: self.cert.clone().zip(self.key.clone()),
            alpn: vec![b"http/1.1".to_vec()],
            resume: true,
        }
    }

    /// Options that mean nothing without TLS, said (once per URL) and ignored.
    pub fn warn_unused(&self, url: &str) {
        let given: Vec<&str> = [
            (self.insecure, "--insecure"),
            (self.cacert.is_some(), "--cacert"),
            (self.cert.is_some(), "--cert/--key"),
        ]
        .into_iter()
        .filter_map(|(set, name)| set.then_some(name))
        .collect();
        if !given.is_empty() {
            eprintln!(
                "plumb: {} ignored: {url} is plain http, without TLS",
                given.join(", ")
            );
        }
    }

    /// The result's record of TLS, with what the handshake before the test agreed.
    pub fn settings(&self, agreed: &Handshake) -> TlsSettings {
        TlsSettings {
            verified: !self.insecure,
            cacert: self.cacert.as_ref().map(|p| p.display().to_string()),
            client_certificate: self.cert.is_some(),
            resumption: true,
            version: agreed.version.clone(),
            alpn: agreed.alpn.clone(),
        }
    }
}
