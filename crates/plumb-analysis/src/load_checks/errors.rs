//! The load checks of what succeeded: nothing at all (always an error), or errors above
//! the fraction the gates accept.
use super::LoadGates;
use plumb_model::finding::{LoadErrors, NothingSucceeded};
use plumb_model::{Diagnostic, LoadInfo, Severity};

pub fn check(l: &LoadInfo, gates: LoadGates) -> Option<Diagnostic> {
    let errors = l.error_count();
    if l.ok == 0 {
        let finding = NothingSucceeded {
            errors: l.errors.clone(),
        };
        return Some(Diagnostic::new(Severity::Error, finding));
    }
    (errors > 0).then(|| {
        let finding = LoadErrors {
            errors,
            ended: l.ok + errors,
            max_error_rate: gates.max_error_rate,
        };
        let severity = if finding.over() {
            Severity::Error
        } else {
            Severity::Warning
        };
        Diagnostic::new(severity, finding)
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::info;
    use super::*;
    use plumb_model::Finding;

    #[test]
    fn nothing_succeeding_fails_with_each_kind_as_evidence() {
        let d = check(&info(0, &[("timeout", 40)], 10), LoadGates::default()).unwrap();
        assert_eq!(d.severity, Severity::Error);
        let Finding::NothingSucceeded(f) = &d.finding else {
            panic!("{d:?}")
        };
        assert_eq!(f.errors["timeout"], 40);
    }

    #[test]
    fn errors_fail_above_the_accepted_rate_only() {
        // 26 of 100 failed (a 74 % success run must not pass).
        let l = info(74, &[("status 503", 26)], 10);
        let d = check(&l, LoadGates::default()).unwrap();
        assert_eq!(d.severity, Severity::Error);
        let Finding::LoadErrors(f) = &d.finding else {
            panic!("{d:?}")
        };
        assert_eq!((f.errors, f.ended, f.rate()), (26, 100, 0.26));
        let gates = |max_error_rate| LoadGates {
            max_error_rate,
            ..LoadGates::default()
        };
        assert_eq!(check(&l, gates(0.3)).unwrap().severity, Severity::Warning);
        // Exactly at the rate passes: 1 of 100 with 1 % accepted.
        let l = info(99, &[("timeout", 1)], 10);
        assert_eq!(check(&l, gates(0.01)).unwrap().severity, Severity::Warning);
        assert!(check(&info(100, &[], 10), LoadGates::default()).is_none());
    }
}
