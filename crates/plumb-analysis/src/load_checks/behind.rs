//! The generator-behind check: the load generator's own lateness past its bound, or a
//! saturated generator while requests waited or went unsent.
use super::LoadGates;
use plumb_model::finding::GeneratorBehind;
use plumb_model::quantity::Duration;
use plumb_model::{Diagnostic, LoadInfo, Severity};

/// The generator is behind its schedule when its own lateness p99 passes this (by
/// default; `--max-lateness` sets it): 1 % of requests left more than 5 ms after they
/// were due, for the generator's reasons alone.
pub const LATE_P99: Duration = Duration::from_millis(5);

/// A generator loop working at least this share of the time is saturated.
pub const SATURATED: f64 = 0.95;

/// The generator is behind when it took requests up late, or when it was saturated
/// (working nearly all the time) while requests waited for connections: then the
/// connections may have been busy with answers it had not yet read, not with the server.
pub fn check(l: &LoadInfo, gates: LoadGates) -> Option<Diagnostic> {
    let late = l.send_lateness.as_ref()?;
    let p99 = late.percentile("p99").unwrap_or_default();
    let busy = l.generator_busy.unwrap_or(0.0);
    let short = l.target_rate.is_some_and(|t| l.achieved_rate < 0.95 * t);
    let saturated = busy >= SATURATED && (l.slot_waits.count > 0 || short);
    if late.count == 0 || (p99 <= gates.max_lateness && !saturated) {
        return None;
    }
    let finding = GeneratorBehind {
        lateness_p99: p99,
        max_lateness: gates.max_lateness,
        busy,
        allow_late: gates.allow_late,
        agent: None,
    };
    let severity = if gates.allow_late {
        Severity::Warning
    } else {
        Severity::Error
    };
    Some(Diagnostic::new(severity, finding))
}

#[cfg(test)]
mod tests {
    use super::super::tests::info;
    use super::*;
    use plumb_model::Finding;

    fn behind(l: &LoadInfo, gates: LoadGates) -> Option<(Severity, GeneratorBehind)> {
        let d = check(l, gates)?;
        match d.finding {
            Finding::GeneratorBehind(f) => Some((d.severity, f)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_late_generator_fails_unless_allowed() {
        let l = info(100, &[], 8_000);
        let (severity, f) = behind(&l, LoadGates::default()).unwrap();
        assert_eq!(severity, Severity::Error);
        assert!(f.late());
        assert_eq!(f.lateness_p99.to_string(), "8.003ms");
        let allowed = LoadGates {
            allow_late: true,
            ..LoadGates::default()
        };
        assert_eq!(behind(&l, allowed).unwrap().0, Severity::Warning);
        // A bound raised past the 8 ms measured: on time.
        let bound = |max_lateness| LoadGates {
            max_lateness,
            ..LoadGates::default()
        };
        assert!(behind(&l, bound(Duration::from_millis(10))).is_none());
        let lower = behind(&l, bound(Duration::from_micros(2_500))).unwrap().1;
        assert_eq!(lower.max_lateness, Duration::from_micros(2_500));
        // On time just under the bound (the histogram's bucket of 4.99 ms ends below 5).
        assert!(behind(&info(100, &[], 4_990), LoadGates::default()).is_none());
    }

    #[test]
    fn a_saturated_generator_is_behind_when_requests_waited_or_went_unsent() {
        let mut l = info(100, &[], 10);
        l.achieved_rate = 100.0;
        l.generator_busy = Some(0.99);
        l.slot_waits.count = 5;
        let f = behind(&l, LoadGates::default()).unwrap().1;
        assert!(!f.late() && f.busy == 0.99, "{f:?}");
        // Saturated with nothing waiting, on schedule: fine; under the rate: behind.
        l.slot_waits.count = 0;
        assert!(behind(&l, LoadGates::default()).is_none());
        l.achieved_rate = 90.0;
        assert!(behind(&l, LoadGates::default()).is_some());
    }
}
