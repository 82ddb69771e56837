//! The generator's configuration made from the settings a result records, and what the
//! test sends beyond them: one source for both, so the record cannot say other than what
//! ran.
use crate::http::tls::TlsOptions;
use crate::http::{LoadConfig, MixTarget, Pacing};
use plumb_model::LoadSettings;
use std::path::PathBuf;

/// What a test sends and writes that its result does not record: the request's headers
/// (one may carry a credential, never recorded) and body, a mix's requests, how https is
/// spoken, the interval log, the mix's seed, and requests outstanding on a connection.
#[derive(Debug, Clone)]
pub struct Sent {
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub tls: TlsOptions,
    pub mix: Vec<MixTarget>,
    pub hlog: Option<PathBuf>,
    pub seed: u64,
    /// HTTP/1.1 pipelining depth.
    pub pipeline: usize,
    /// HTTP/2 streams a connection.
    pub streams: usize,
}

impl LoadConfig {
    /// The configuration that runs what `s` records, sending `sent`.
    pub fn planned(s: &LoadSettings, sent: Sent) -> LoadConfig {
        LoadConfig {
            url: s.url.clone(),
            method: s.method.clone(),
            headers: sent.headers,
            body: sent.body,
            duration: s.duration.to_std(),
            warmup: s.warmup.to_std(),
            timeout: s.timeout.to_std(),
            drain: s.drain.unwrap_or(s.timeout).to_std(),
            mode: Pacing::from(&s.mode),
            threads: s.threads as usize,
            pipeline: sent.pipeline,
            max_body: s.max_body.map_or(u64::MAX, |b| b.0),
            start_at: s.start_at.map(|t| t.to_system_time()),
            hlog: sent.hlog,
            spin: s.spin.to_std(),
            tls: sent.tls,
            new_connection: s.new_connection,
            mix: sent.mix,
            seed: sent.seed,
            http2: s.http2,
            streams: sent.streams,
            agents: s.agents,
        }
    }
}
