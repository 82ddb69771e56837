//! Before a fast test: can one generator thread send this rate at all? A short closed-
//! loop probe against the target (a few hundred milliseconds, before the warm-up)
//! measures this thread's CPU time per request, the generator's own cost including the
//! kernel's share of the socket calls. What that allows (threads needed for a rate) is
//! plumb-analysis's capacity check.

use super::config::LoadConfig;
use super::engine::{self, Plan, Work};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Rates per thread below this are not probed: any machine sends them.
pub const PROBE_ABOVE: f64 = 20_000.0;
const PROBE_FOR: Duration = Duration::from_millis(300);
const PROBE_CONNECTIONS: usize = 8;
/// What the probe measured: this thread's CPU time per request, over `requests`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capacity {
    pub cpu_per_request: Duration,
    pub requests: u64,
}

/// Probes the target from this thread. `None` when it answered too little to say.
pub fn probe(cfg: &LoadConfig) -> Result<Option<Capacity>, crate::LoadError> {
    let reached = super::reach::reach(cfg)?;
    let start = Instant::now();
    let plan = Plan {
        thread: 0,
        work: Work::Closed(PROBE_CONNECTIONS),
        start,
        measure_from: start,
        end: start + PROBE_FOR,
        timeout: cfg.timeout,
        drain: cfg.timeout.min(Duration::from_secs(1)),
        spin: Duration::ZERO,
        max_connections: PROBE_CONNECTIONS,
        max_h2_connections: PROBE_CONNECTIONS.div_ceil(cfg.streams.max(1)),
        pipeline: 1,
        streams: cfg.streams.max(1),
        targets: reached.targets,
        hosts: reached.hosts,
        seed: cfg.seed,
        max_body: cfg.max_body,
        first: Some(reached.first),
        live: None,
        new_connection: cfg.new_connection,
        http2: cfg.http2,
    };
    let cpu0 = thread_cpu();
    let report = engine::run(plan, &AtomicBool::new(false))?;
    let cpu = thread_cpu().saturating_sub(cpu0);
    if report.ok < 100 {
        return Ok(None);
    }
    Ok(Some(Capacity {
        cpu_per_request: cpu / report.ok as u32,
        requests: report.ok,
    }))
}

fn thread_cpu() -> Duration {
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe {
        let mut ts: libc::timespec = std::mem::zeroed();
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts);
        Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
    }
}
