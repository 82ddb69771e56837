//! The load checks that report without gating: requests that waited for a free
//! connection (the in-flight bound full), and requests sent again after a closed
//! kept-alive connection.
use plumb_model::finding::{InFlightBoundFull, Retried};
use plumb_model::{Diagnostic, LoadInfo, Severity};

pub fn bound_full(l: &LoadInfo) -> Option<Diagnostic> {
    (l.slot_waits.count > 0).then(|| {
        let finding = InFlightBoundFull {
            waited: l.slot_waits.count,
            due: l.due,
            max_wait: l.slot_waits.max,
            in_flight: l.concurrency,
        };
        Diagnostic::new(Severity::Warning, finding)
    })
}

pub fn retried(l: &LoadInfo) -> Option<Diagnostic> {
    (l.retried > 0).then(|| Diagnostic::new(Severity::Info, Retried { retried: l.retried }))
}

#[cfg(test)]
mod tests {
    use super::super::tests::info;
    use super::*;
    use plumb_model::quantity::Duration;
    use plumb_model::Finding;

    #[test]
    fn a_full_bound_is_named_with_its_waits() {
        let mut l = info(100, &[], 10);
        assert!(bound_full(&l).is_none());
        l.slot_waits = plumb_model::SlotWaits {
            count: 25,
            max: Duration::from_millis(40),
            total: Duration::from_millis(100),
        };
        let d = bound_full(&l).unwrap();
        let Finding::InFlightBoundFull(f) = &d.finding else {
            panic!("{d:?}")
        };
        assert_eq!(
            (f.waited, f.due, f.max_wait, f.in_flight),
            (25, 100, Duration::from_millis(40), 100)
        );
    }
}
