//! A call of plumb-stats' one `decide` as a comparison records it: the verdict and its
//! reason. Every verdict of this crate on a ratio's interval goes through here.
use plumb_model::{Verdict, VerdictReason};
use plumb_stats::{decide, Call, Evidence, Interval, Look};

/// The verdict on a ratio of means from its interval and the tests at significance
/// `alpha` (plumb-stats' one `decide`): beyond the SESOI, shown within it (TOST), a real
/// change of unsettled size (Welch), or not shown. `constant`: both sides' samples were
/// constant.
pub(crate) fn by_tests(
    ci: Interval,
    (tost_p, welch_p, alpha): (f64, f64, f64),
    sesoi: f64,
    constant: bool,
) -> (Verdict, VerdictReason) {
    let evidence = Evidence::Tests {
        tost_p,
        welch_p,
        alpha,
    };
    worded(decide(ci, sesoi, evidence, Look::Fixed), constant)
}

/// The verdict a ratio's interval gives alone, with no test beside it (an interval widened
/// by the noise between runs, two stated intervals, exact counts): beyond the SESOI,
/// wholly within it, excluding 1 but straddling it, or neither.
pub(crate) fn by_interval(ci: Interval, sesoi: f64, constant: bool) -> (Verdict, VerdictReason) {
    worded(decide(ci, sesoi, Evidence::Interval, Look::Fixed), constant)
}

/// A call as the comparison records it: its verdict and the reason for it.
fn worded(call: Call, constant: bool) -> (Verdict, VerdictReason) {
    let reason = match call {
        Call::Slower | Call::Faster => VerdictReason::BeyondSesoi {
            constant_samples: constant,
        },
        Call::Equivalent => VerdictReason::WithinSesoi,
        Call::Unsettled => VerdictReason::StraddlesSesoi,
        Call::NotShown | Call::Continue => VerdictReason::NotShown,
    };
    (verdict_of(call), reason)
}

/// A call as a verdict alone: slower, faster, equivalent, or inconclusive.
pub(crate) fn verdict_of(call: Call) -> Verdict {
    match call {
        Call::Slower => Verdict::Slower,
        Call::Faster => Verdict::Faster,
        Call::Equivalent => Verdict::Equivalent,
        Call::Unsettled | Call::NotShown | Call::Continue => Verdict::Inconclusive,
    }
}
