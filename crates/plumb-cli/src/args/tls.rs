//! `plumb load`'s TLS options (https): what is trusted, the client certificate, and
//! `--insecure`; turned into the generator's options and the result's record.
use clap::Args;
use plumb_load::http::tls::TlsOptions;
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
    /// Resume TLS sessions on new connections (an abbreviated handshake, as a browser
    /// does). Default: on with kept-alive connections, off with --new-connection (every
    /// request pays a full handshake, as a client without a session cache does).
    #[arg(long, value_name = "on|off", value_parser = ["on", "off"])]
    pub tls_resume: Option<String>,
}

impl TlsArgs {
    /// Whether sessions are resumed, with this connection policy.
    pub fn resume(&self, new_connection: bool) -> bool {
        match self.tls_resume.as_deref() {
            Some(v) => v == "on",
            None => !new_connection,
        }
    }

    /// The generator's TLS options: ALPN offers HTTP/1.1, and first HTTP/2 if asked.
    pub fn options(&self, new_connection: bool, http2: bool) -> TlsOptions {
        let mut alpn = vec![b"http/1.1".to_vec()];
        if http2 {
            alpn.insert(0, b"h2".to_vec());
        }
        TlsOptions {
            cacert: self.cacert.clone(),
            insecure: self.insecure,
            client_cert: self.cert.clone().zip(self.key.clone()),
            alpn,
            resume: self.resume(new_connection),
        }
    }

    /// Options that mean nothing without TLS, said (once per URL) and ignored.
    pub fn warn_unused(&self, url: &str) {
        let given: Vec<&str> = [
            (self.insecure, "--insecure"),
            (self.cacert.is_some(), "--cacert"),
            (self.cert.is_some(), "--cert/--key"),
            (self.tls_resume.is_some(), "--tls-resume"),
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
}
