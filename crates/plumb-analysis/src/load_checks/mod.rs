//! What a load result must survive before its latencies mean anything, and the gates a
//! CI run exits on: something succeeded; errors within the accepted fraction; the
//! generator on its own schedule. Waits for a free connection (the in-flight bound
//! full) and retries are reported, not gated: the latencies already include them. One
//! file per check; `capacity` is asked before a test, `merged` of agents' results.

mod behind;
mod capacity;
mod errors;
pub mod merged;
mod tail_source;
mod tls;
mod waits;

pub use behind::{LATE_P99, SATURATED};
pub use capacity::{beyond_machine, capacity, BEYOND_MACHINE};

use plumb_model::quantity::Duration;
use plumb_model::{Diagnostic, LoadInfo, LoadSettings};

/// What the exit code holds a load result to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoadGates {
    /// The largest fraction of errors accepted (0: any error fails).
    pub max_error_rate: f64,
    /// A generator behind its schedule is reported but does not fail.
    pub allow_late: bool,
    /// The generator's own send lateness p99 above which it is behind.
    pub max_lateness: Duration,
}

impl Default for LoadGates {
    fn default() -> Self {
        LoadGates {
            max_error_rate: 0.0,
            allow_late: false,
            max_lateness: LATE_P99,
        }
    }
}

/// The findings of how the test was set up (its settings, not its figures).
pub fn settings_checks(s: &LoadSettings) -> Vec<Diagnostic> {
    tls::unverified(s).into_iter().collect()
}

/// The findings, errors first: a finding of severity `Error` fails the run.
pub fn load_checks(l: &LoadInfo, gates: LoadGates) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = [
        errors::check(l, gates),
        behind::check(l, gates),
        tail_source::check(l, gates),
        waits::bound_full(l),
        waits::retried(l),
    ]
    .into_iter()
    .flatten()
    .collect();
    out.sort_by_key(|d| std::cmp::Reverse(d.severity));
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use plumb_model::{DiagnosticCode, LatencyDistribution, Severity};

    pub fn dist(values: &[u64]) -> LatencyDistribution {
        let mut h = hdrhistogram::Histogram::<u64>::new_with_bounds(1, 3_600_000_000, 3).unwrap();
        for &v in values {
            h.record(v).unwrap();
        }
        LatencyDistribution::from_histogram(&h)
    }

    /// 10 s at 100/s: `ok` answered, `errors` failed, every send `lateness_us` late.
    pub fn info(ok: u64, errors: &[(&str, u64)], lateness_us: u64) -> LoadInfo {
        LoadInfo {
            target_rate: Some(100.0),
            achieved_rate: ok as f64 / 10.0,
            duration: Duration::from_secs(10),
            errors: errors.iter().map(|(k, n)| (k.to_string(), *n)).collect(),
            concurrency: 100,
            send_lateness: Some(dist(&vec![lateness_us; 1000])),
            due: ok + errors.iter().map(|e| e.1).sum::<u64>(),
            ..LoadInfo::answered(dist(&vec![100; ok as usize]))
        }
    }

    pub fn codes(d: &[Diagnostic]) -> Vec<(DiagnosticCode, Severity)> {
        d.iter().map(|d| (d.code(), d.severity)).collect()
    }

    #[test]
    fn errors_come_first() {
        let mut l = info(74, &[("status 503", 26)], 10);
        l.retried = 2;
        let gates = LoadGates {
            max_error_rate: 0.3,
            ..LoadGates::default()
        };
        assert_eq!(
            codes(&load_checks(&l, gates)),
            [
                (DiagnosticCode::LoadErrors, Severity::Warning),
                (DiagnosticCode::Retried, Severity::Info)
            ]
        );
        let l = info(74, &[("status 503", 26)], 8_000);
        assert_eq!(
            codes(&load_checks(&l, LoadGates::default())),
            [
                (DiagnosticCode::LoadErrors, Severity::Error),
                (DiagnosticCode::GeneratorBehind, Severity::Error)
            ]
        );
    }
}
