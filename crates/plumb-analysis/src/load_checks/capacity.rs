//! The capacity check, before a load test: is the rate asked above what the generator's
//! threads can send on schedule, given the CPU a probe measured per request?
use plumb_model::finding::RateAboveCapacity;
use plumb_model::quantity::Duration;
use plumb_model::{Diagnostic, Severity};

/// A thread is planned at most this busy: beyond it, sends queue behind answers.
pub const USABLE_SHARE: f64 = 0.8;

/// The most one thread could send, all its CPU spent on requests.
fn per_thread(cpu_per_request: Duration) -> f64 {
    1.0 / cpu_per_request.as_secs_f64().max(1e-9)
}

/// A rate more than this many times what every CPU of the machine could send is refused
/// before the test (unless late sends are allowed): such a test measures nothing but the
/// generator falling behind.
pub const BEYOND_MACHINE: f64 = 10.0;

/// Whether the rate of a capacity note is beyond what one process on this machine could
/// offer by `BEYOND_MACHINE` times (all its CPUs sending, nothing else).
pub fn beyond_machine(note: &RateAboveCapacity) -> bool {
    note.rate > BEYOND_MACHINE * note.per_thread * note.cpus as f64
}

/// Threads needed to send `rate` with each at most `USABLE_SHARE` busy.
fn threads_for(rate: f64, cpu_per_request: Duration) -> usize {
    (rate / (USABLE_SHARE * per_thread(cpu_per_request)))
        .ceil()
        .max(1.0) as usize
}

/// A note when `threads` cannot send `rate` at `cpu_per_request` each; `cpus`: the CPUs
/// this process may use (beyond them, more threads do not help: more agents do).
pub fn capacity(
    rate: f64,
    threads: usize,
    cpu_per_request: Duration,
    cpus: usize,
) -> Option<Diagnostic> {
    let threads_needed = threads_for(rate, cpu_per_request);
    (threads_needed > threads).then(|| {
        let finding = RateAboveCapacity {
            rate,
            threads,
            cpu_per_request,
            per_thread: per_thread(cpu_per_request),
            threads_needed,
            cpus,
        };
        Diagnostic::new(Severity::Info, finding)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_needed_follow_the_cost_per_request() {
        let eight = Duration::from_micros(8);
        assert!((per_thread(eight) - 125_000.0).abs() < 1e-6);
        // 100 000/s at 80 % of 125 000/s per thread: exactly one thread.
        assert_eq!(threads_for(100_000.0, eight), 1);
        assert_eq!(threads_for(100_001.0, eight), 2);
        assert_eq!(threads_for(300_000.0, eight), 3);
        assert!(capacity(100_000.0, 1, eight, 2).is_none());
        let d = capacity(300_000.0, 2, eight, 2).unwrap();
        let plumb_model::Finding::RateAboveCapacity(f) = &d.finding else {
            panic!("{d:?}")
        };
        assert_eq!((f.threads_needed, f.cpus), (3, 2));
        assert!(
            !beyond_machine(f),
            "300 000/s is within 2 CPUs at 125 000/s each"
        );
        let d = capacity(2_500_001.0, 1, eight, 2).unwrap();
        let plumb_model::Finding::RateAboveCapacity(f) = &d.finding else {
            panic!("{d:?}")
        };
        assert!(beyond_machine(f), "above 10 × 250 000/s");
        let d = capacity(2_500_000.0, 1, eight, 2).unwrap();
        let plumb_model::Finding::RateAboveCapacity(f) = &d.finding else {
            panic!("{d:?}")
        };
        assert!(!beyond_machine(f));
    }
}
