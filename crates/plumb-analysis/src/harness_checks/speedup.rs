//! The speed-up checks of a comparison within a group: identical variants must agree
//! (else the machine's noise is showing), and a different variant 2× faster should have
//! its work checked.
use super::GroupChecks;
use plumb_model::finding::{CheckTheWork, Noise};
use plumb_model::{Comparison, Diagnostic, ResultDocument, Severity, Verdict};
use plumb_stats::{decide, Call, Evidence, Look};
use std::collections::BTreeMap;

pub fn check(
    doc: &ResultDocument,
    c: &Comparison,
    groups: &BTreeMap<String, GroupChecks>,
) -> Option<Diagnostic> {
    let group = doc
        .benchmark(&c.candidate)
        .and_then(|b| b.name.split('/').next().map(str::to_string));
    let identical = group
        .as_ref()
        .and_then(|g| groups.get(g))
        .is_some_and(|o| o.identical);
    if identical {
        return identical_apart(c);
    }
    (c.ratio.is_finite() && c.ratio <= 0.5 && c.verdict == Verdict::Faster).then(|| {
        let finding = CheckTheWork {
            ratio: c.ratio,
            baseline: c.baseline.clone(),
        };
        Diagnostic::new(Severity::Warning, finding)
    })
}

/// Identical code should be measured equivalent; when it is not, the machine's noise is
/// the only difference there is. Either it made a difference beyond the SESOI (a verdict,
/// or an interval that excludes 1 around an estimate beyond the SESOI), or it left the
/// ratio so uncertain that a change of the SESOI's size could hide in it.
fn identical_apart(c: &Comparison) -> Option<Diagnostic> {
    let finding = Noise {
        baseline: c.baseline.clone(),
        verdict: c.verdict,
        ratio: c.ratio,
        ratio_ci: c.ratio_ci,
        sesoi: c.sesoi,
    };
    let noisy = finding.apart()
        || (c.verdict != Verdict::Equivalent
            // Inside ±SESOI yet not shown equivalent is TOST's stricter level, not noise.
            && c.ratio_ci.is_some_and(|ci| {
                decide(ci, c.sesoi.get(), Evidence::Interval, Look::Fixed) != Call::Equivalent
            }));
    noisy.then(|| Diagnostic::new(Severity::Warning, finding))
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::quantity::{Confidence, Fraction};

    fn identical_pair(verdict: Verdict, ratio: f64, lo: f64, hi: f64) -> Comparison {
        Comparison {
            verdict,
            ratio,
            ratio_ci: Some(plumb_stats::Interval { lo, hi }),
            ..Comparison::unjudged("g/a", "g/b", Confidence::DEFAULT, Fraction::DEFAULT_SESOI)
        }
    }

    /// The noise finding on identical variants measured so, if any.
    fn noise(verdict: Verdict, ratio: f64, lo: f64, hi: f64) -> Option<Noise> {
        match identical_apart(&identical_pair(verdict, ratio, lo, hi))?.finding {
            plumb_model::Finding::Noise(n) => Some(n),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn identical_code_not_measured_equivalent_is_the_machines_noise() {
        let apart = noise(Verdict::Slower, 1.048, 1.031, 1.066).unwrap();
        assert!(apart.apart());
        // Real (the interval excludes 1) and estimated beyond the SESOI, size unsettled.
        let real = noise(Verdict::Inconclusive, 1.032, 1.006, 1.058).unwrap();
        assert!(real.apart());
        // So uncertain that nothing can be said: that too is the machine.
        let wide = noise(Verdict::Inconclusive, 1.42, 0.784, 2.061).unwrap();
        assert!(!wide.apart());
        // Inside the SESOI, not shown equivalent at TOST's level: not noise.
        assert!(noise(Verdict::Inconclusive, 1.001, 0.985, 1.019).is_none());
        assert!(noise(Verdict::Equivalent, 0.998, 0.983, 1.014).is_none());
    }
}
