//! Before a fast test: can one generator thread send this rate at all? A short closed-
//! loop probe against the target (a few hundred milliseconds, before the warm-up)
//! measures this thread's CPU time per request, the generator's own cost including the
//! kernel's share of the socket calls, and so the most one thread could send.

use super::engine::{self, Plan, Work};
use super::run::LoadConfig;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Rates per thread below this are not probed: any machine sends them.
pub const PROBE_ABOVE: f64 = 20_000.0;
const PROBE_FOR: Duration = Duration::from_millis(300);
const PROBE_CONNECTIONS: usize = 8;
/// A thread is planned at most this busy: beyond it, sends queue behind answers.
pub const USABLE_SHARE: f64 = 0.8;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capacity {
    pub cpu_per_request: Duration,
    pub requests: u64,
}

impl Capacity {
    /// The most one thread could send, all its CPU spent on requests.
    pub fn per_thread(&self) -> f64 {
        1.0 / self.cpu_per_request.as_secs_f64().max(1e-9)
    }

    /// Threads needed to send `rate` with each at most `USABLE_SHARE` busy.
    pub fn threads_for(&self, rate: f64) -> usize {
        (rate / (USABLE_SHARE * self.per_thread())).ceil().max(1.0) as usize
    }
}

/// Probes the target from this thread. `None` when it answered too little to say.
pub fn probe(cfg: &LoadConfig) -> Result<Option<Capacity>, String> {
    let reached = super::run::reach(cfg)?;
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
        pipeline: 1,
        request: reached.request,
        idempotent: reached.idempotent,
        head: reached.head,
        max_body: cfg.max_body,
        addr: reached.addr,
        first: Some(reached.first),
        live: None,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_needed_follow_the_cost_per_request() {
        let c = Capacity {
            cpu_per_request: Duration::from_micros(8),
            requests: 1000,
        };
        assert!((c.per_thread() - 125_000.0).abs() < 1e-6);
        // 100 000/s at 80 % of 125 000/s per thread: exactly one thread.
        assert_eq!(c.threads_for(100_000.0), 1);
        assert_eq!(c.threads_for(100_001.0), 2);
        assert_eq!(c.threads_for(300_000.0), 3);
    }
}
