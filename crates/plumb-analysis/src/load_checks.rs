//! What a load result must survive before its latencies mean anything, and the gates a
//! CI run exits on: something succeeded; errors within the accepted fraction; the
//! generator on its own schedule. Waits for a free connection (the in-flight bound
//! full) and retries are reported, not gated: the latencies already include them.

use plumb_model::format;
use plumb_model::quantity::Duration;
use plumb_model::{Diagnostic, DiagnosticCode, LoadInfo, Severity};

/// The generator is behind its schedule when its own lateness p99 passes this (by
/// default; `--max-lateness` sets it): 1 % of requests left more than 5 ms after they
/// were due, for the generator's reasons alone.
pub const LATE_P99: Duration = Duration::from_millis(5);

/// A generator loop working at least this share of the time is saturated.
pub const SATURATED: f64 = 0.95;

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

/// The findings, errors first: a finding of severity `Error` fails the run.
pub fn load_checks(l: &LoadInfo, gates: LoadGates) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let errors = l.error_count();
    let ended = l.ok + errors;
    if l.ok == 0 {
        let mut d = Diagnostic::new(
            DiagnosticCode::NothingSucceeded,
            Severity::Error,
            if errors == 0 {
                "no request was answered in the measured window".to_string()
            } else {
                format!("none of {errors} requests succeeded")
            },
        );
        for (kind, n) in &l.errors {
            d = d.evidence(kind, *n);
        }
        out.push(d);
    } else if errors > 0 {
        let rate = errors as f64 / ended as f64;
        let over = rate > gates.max_error_rate;
        out.push(
            Diagnostic::new(
                DiagnosticCode::LoadErrors,
                if over {
                    Severity::Error
                } else {
                    Severity::Warning
                },
                format!(
                    "{errors} of {ended} requests failed ({}), {} the accepted {}",
                    percent(rate),
                    if over { "above" } else { "within" },
                    percent(gates.max_error_rate)
                ),
            )
            .evidence("error_rate", rate)
            .evidence("max_error_rate", gates.max_error_rate)
            .advice("--max-error-rate sets the fraction of errors a run may have and still pass"),
        );
    }
    if let Some(d) = behind(l, gates) {
        out.push(d);
    }
    if l.slot_waits.count > 0 {
        let share = l.slot_waits.count as f64 / l.due.max(1) as f64;
        out.push(
            Diagnostic::new(
                DiagnosticCode::InFlightBoundFull,
                Severity::Warning,
                format!(
                    "every connection was busy: {} requests ({}) waited for one, up to {}. The server is not keeping up at {} requests in flight; their latency includes the wait",
                    l.slot_waits.count,
                    percent(share),
                    format::time(l.slot_waits.max),
                    l.concurrency
                ),
            )
            .evidence("waited", l.slot_waits.count)
            .evidence("max_wait_us", l.slot_waits.max.as_micros_f64())
            .advice("a higher --max-in-flight lets the backlog grow inside the server instead; the generator itself was on time"),
        );
    }
    if l.retried > 0 {
        out.push(
            Diagnostic::new(
                DiagnosticCode::Retried,
                Severity::Info,
                format!(
                    "{} requests were sent again after the server closed a kept-alive connection under them before answering; their latency includes the retry",
                    l.retried
                ),
            )
            .evidence("retried", l.retried),
        );
    }
    out.sort_by_key(|d| std::cmp::Reverse(d.severity));
    out
}

/// The generator is behind when it took requests up late, or when it was saturated
/// (working nearly all the time) while requests waited for connections: then the
/// connections may have been busy with answers it had not yet read, not with the server.
fn behind(l: &LoadInfo, gates: LoadGates) -> Option<Diagnostic> {
    let late = l.send_lateness.as_ref()?;
    let p99 = late.percentile("p99").unwrap_or_default();
    let busy = l.generator_busy.unwrap_or(0.0);
    let short = l.target_rate.is_some_and(|t| l.achieved_rate < 0.95 * t);
    let saturated = busy >= SATURATED && (l.slot_waits.count > 0 || short);
    let bound = gates.max_lateness;
    if late.count == 0 || (p99 <= bound && !saturated) {
        return None;
    }
    let why = if p99 > bound {
        format!(
            "its own send lateness p99 is {} (the bound is {})",
            format::time(p99),
            format::time(bound)
        )
    } else {
        format!(
            "it was working {:.0} % of the time while requests waited for connections or went unsent, so answers it had not read yet may have kept the connections busy",
            100.0 * busy
        )
    };
    Some(
        Diagnostic::new(
            DiagnosticCode::GeneratorBehind,
            if gates.allow_late { Severity::Warning } else { Severity::Error },
            format!(
                "the generator fell behind its schedule: {why}{}. Latencies include the generator's delay",
                if gates.allow_late { " (accepted with --allow-late)" } else { "" }
            ),
        )
        .evidence("lateness_p99_us", p99.as_micros_f64())
        .evidence("generator_busy", busy)
        .evidence("max_lateness_us", bound.as_micros_f64())
        .advice("more --threads, more agents (plumb merge), or a lower rate; on a machine that starves the generator now and then, --max-lateness raises the bound, and --allow-late accepts the run as it is"),
    )
}

fn percent(f: f64) -> String {
    match f {
        0.0 => "0 %".into(),
        f if f < 0.001 => format!("{:.3} %", 100.0 * f),
        f => format!("{:.1} %", 100.0 * f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::LatencyDistribution;

    fn dist(values: &[u64]) -> LatencyDistribution {
        let mut h = hdrhistogram::Histogram::<u64>::new_with_bounds(1, 3_600_000_000, 3).unwrap();
        for &v in values {
            h.record(v).unwrap();
        }
        LatencyDistribution::from_histogram(&h)
    }

    fn info(ok: u64, errors: &[(&str, u64)], lateness_us: u64) -> LoadInfo {
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

    fn codes(d: &[Diagnostic]) -> Vec<(DiagnosticCode, Severity)> {
        d.iter().map(|d| (d.code.clone(), d.severity)).collect()
    }

    #[test]
    fn nothing_succeeding_fails_with_each_kind_as_evidence() {
        let d = load_checks(&info(0, &[("timeout", 40)], 10), LoadGates::default());
        assert_eq!(
            codes(&d),
            [(DiagnosticCode::NothingSucceeded, Severity::Error)]
        );
        assert_eq!(d[0].message, "none of 40 requests succeeded");
        assert_eq!(d[0].evidence["timeout"], 40);
    }

    #[test]
    fn errors_fail_above_the_accepted_rate_only() {
        // 26 of 100 failed (a 74 % success run must not pass).
        let l = info(74, &[("status 503", 26)], 10);
        let d = load_checks(&l, LoadGates::default());
        assert_eq!(codes(&d), [(DiagnosticCode::LoadErrors, Severity::Error)]);
        assert!(d[0]
            .message
            .contains("26 of 100 requests failed (26.0 %), above the accepted 0 %"));
        let gates = LoadGates {
            max_error_rate: 0.3,
            ..LoadGates::default()
        };
        assert_eq!(load_checks(&l, gates)[0].severity, Severity::Warning);
        // Exactly at the rate passes: 1 of 100 with 1 % accepted.
        let l = info(99, &[("timeout", 1)], 10);
        let gates = LoadGates {
            max_error_rate: 0.01,
            ..LoadGates::default()
        };
        assert_eq!(load_checks(&l, gates)[0].severity, Severity::Warning);
        assert!(load_checks(&info(100, &[], 10), LoadGates::default()).is_empty());
    }

    #[test]
    fn a_late_generator_fails_unless_allowed_and_a_full_bound_is_named_apart() {
        let l = info(100, &[], 8_000);
        let d = load_checks(&l, LoadGates::default());
        assert_eq!(
            codes(&d),
            [(DiagnosticCode::GeneratorBehind, Severity::Error)]
        );
        assert!(d[0].message.contains("p99 is 8.003 ms"), "{}", d[0].message);
        // On time, but saturated while requests waited for connections: behind too.
        let mut l2 = info(100, &[], 10);
        l2.achieved_rate = 100.0;
        l2.generator_busy = Some(0.99);
        l2.slot_waits.count = 5;
        let d2 = load_checks(&l2, LoadGates::default());
        assert_eq!(d2[0].code, DiagnosticCode::GeneratorBehind);
        assert!(
            d2[0].message.contains("working 99 % of the time"),
            "{}",
            d2[0].message
        );
        // Saturated with nothing waiting, on schedule: fine; under the rate: behind.
        l2.slot_waits.count = 0;
        assert!(load_checks(&l2, LoadGates::default()).is_empty());
        l2.achieved_rate = 90.0;
        assert_eq!(
            load_checks(&l2, LoadGates::default())[0].code,
            DiagnosticCode::GeneratorBehind
        );
        let gates = LoadGates {
            allow_late: true,
            ..LoadGates::default()
        };
        assert_eq!(load_checks(&l, gates)[0].severity, Severity::Warning);
        // A bound raised past the 8 ms measured: on time.
        let gates = LoadGates {
            max_lateness: Duration::from_millis(10),
            ..LoadGates::default()
        };
        assert!(load_checks(&l, gates).is_empty());
        let gates = LoadGates {
            max_lateness: Duration::from_micros(2_500),
            ..LoadGates::default()
        };
        assert!(load_checks(&l, gates)[0]
            .message
            .contains("p99 is 8.003 ms (the bound is 2.500 ms)"));
        // On time just under the bound (the histogram's bucket of 4.99 ms ends below 5).
        assert!(load_checks(&info(100, &[], 4_990), LoadGates::default()).is_empty());

        let mut l = info(100, &[], 10);
        l.slot_waits = plumb_model::SlotWaits {
            count: 25,
            max: Duration::from_millis(40),
            total: Duration::from_millis(100),
        };
        let d = load_checks(&l, LoadGates::default());
        assert_eq!(
            codes(&d),
            [(DiagnosticCode::InFlightBoundFull, Severity::Warning)]
        );
        assert!(d[0]
            .message
            .contains("25 requests (25.0 %) waited for one, up to 40.00 ms"));
        assert!(d[0]
            .message
            .contains("not keeping up at 100 requests in flight"));
    }
}
