//! `plumb load`'s TLS options (https): what is trusted, the client certificate, and
//! `--insecure`; turned into the generator's options.
use crate::http::tls::TlsOptions;
use clap::Args;
use std::path::PathBuf;

/// Each under the heading HTTPS (set on each: a heading set for the group would carry on
/// to every option declared after it).
#[derive(Debug, Args, Default)]
pub struct TlsFlags {
    /// Trust the certificates in this PEM file (a private CA, a self-signed server)
    /// instead of the system's roots. A server serving exactly a certificate given here
    /// (what `openssl req -x509` makes) is trusted, its name still checked.
    #[arg(long, value_name = "FILE", help_heading = "HTTPS")]
    pub cacert: Option<PathBuf>,
    /// Accept any server certificate: the connection is encrypted but nobody checked
    /// which server answered. Said beside every figure and in the result.
    #[arg(short = 'k', long, help_heading = "HTTPS")]
    pub insecure: bool,
    /// A client certificate chain (PEM) to present, with --key.
    #[arg(long, value_name = "FILE", requires = "key", help_heading = "HTTPS")]
    pub cert: Option<PathBuf>,
    /// The client certificate's private key (PEM), with --cert.
    #[arg(long, value_name = "FILE", requires = "cert", help_heading = "HTTPS")]
    pub key: Option<PathBuf>,
    /// Resume TLS sessions on new connections (an abbreviated handshake, as a browser
    /// does). Default: on with kept-alive connections, off with --new-connection (every
    /// request pays a full handshake, as a client without a session cache does).
    #[arg(long, value_name = "on|off", value_parser = ["on", "off"], help_heading = "HTTPS")]
    pub tls_resume: Option<String>,
}

impl TlsFlags {
    /// The generator's TLS options: ALPN offers HTTP/1.1, and first HTTP/2 if asked;
    /// sessions resumed as `--tls-resume` says, else unless every request connects anew.
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
            resume: self
                .tls_resume
                .as_deref()
                .map_or(!new_connection, |v| v == "on"),
        }
    }

    /// What to say of the options given that mean nothing for `target`, plain http.
    pub fn unused(&self, target: &str) -> Option<String> {
        let given: Vec<&str> = [
            (self.insecure, "--insecure"),
            (self.cacert.is_some(), "--cacert"),
            (self.cert.is_some(), "--cert/--key"),
            (self.tls_resume.is_some(), "--tls-resume"),
        ]
        .into_iter()
        .filter_map(|(set, name)| set.then_some(name))
        .collect();
        (!given.is_empty()).then(|| {
            format!(
                "{} ignored: {target} is plain http, without TLS",
                given.join(", ")
            )
        })
    }
}
