//! The one decision: where an interval of a ratio (new / base) lies against the smallest
//! effect size of interest (SESOI). Every verdict plumb gives — the means (Fieller's
//! interval with TOST and Welch beside it), a question's quantiles and minima, a harness's
//! stated intervals and exact counts, load percentiles, counters, the between-run widening,
//! and each sequential look of `plumb revs` and of history confirmation — is called here
//! and nowhere else; callers only say what they have beside the interval.
//!
//! Written here rather than taken from a crate because it *is* the product. It lives in
//! plumb-stats, the lowest crate, so that the sequential looks beside it and the model's
//! findings can call it too.
//!
//! * **slower / faster** only when the whole interval lies beyond 1 ± SESOI: real *and*
//!   at least as large as what matters.
//! * **equivalent** when equivalence is shown: the interval wholly within ±SESOI, or, for
//!   the means, TOST at α.
//! * otherwise a change of **unsettled** size (the interval excludes 1, or Welch at α), or
//!   **not shown**; at an interim sequential look either of those is **continue**.
use crate::Interval;

/// Where the interval leaves the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// The whole interval beyond 1 + SESOI.
    Slower,
    /// The whole interval below 1 − SESOI.
    Faster,
    /// Shown within ±SESOI.
    Equivalent,
    /// A change is shown, but its size is not settled against the SESOI.
    Unsettled,
    /// Neither a change nor equivalence is shown.
    NotShown,
    /// An interim look settled nothing: take more rounds.
    Continue,
}

impl Call {
    /// Slower or faster.
    pub fn is_change(self) -> bool {
        matches!(self, Call::Slower | Call::Faster)
    }
}

/// What the caller has beside the interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Evidence {
    /// The interval alone: wholly within ±SESOI shows equivalence, excluding 1 a change.
    Interval,
    /// The means' tests at significance `alpha`: TOST's p shows equivalence, Welch's a
    /// change (the interval still decides slower and faster).
    Tests {
        tost_p: f64,
        welch_p: f64,
        alpha: f64,
    },
    /// A ratio with no interval (pass it as `[r, r]`): called only beyond the SESOI, never
    /// equivalent, since nothing bounds it.
    Point,
}

/// Which look this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// The only look of a fixed sample.
    Fixed,
    /// A sequential look before the cap: what it leaves unsettled is `Continue`.
    Interim,
    /// The last sequential look (the cap).
    Last,
}

/// The verdict of interval `ci` of a ratio against `sesoi` (a fraction: 0.02 for ±2 %),
/// given `evidence` beside it, at `look`.
pub fn decide(ci: Interval, sesoi: f64, evidence: Evidence, look: Look) -> Call {
    let call = if ci.lo > 1.0 + sesoi {
        Call::Slower
    } else if ci.hi < 1.0 - sesoi {
        Call::Faster
    } else {
        match evidence {
            Evidence::Interval if ci.lo >= 1.0 - sesoi && ci.hi <= 1.0 + sesoi => Call::Equivalent,
            Evidence::Interval if ci.lo > 1.0 || ci.hi < 1.0 => Call::Unsettled,
            Evidence::Tests { tost_p, alpha, .. } if tost_p < alpha => Call::Equivalent,
            Evidence::Tests { welch_p, alpha, .. } if welch_p < alpha => Call::Unsettled,
            _ => Call::NotShown,
        }
    };
    match (call, look) {
        (Call::Unsettled | Call::NotShown, Look::Interim) => Call::Continue,
        _ => call,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ci(lo: f64, hi: f64) -> Interval {
        Interval { lo, hi }
    }

    fn by_interval(lo: f64, hi: f64) -> Call {
        decide(ci(lo, hi), 0.02, Evidence::Interval, Look::Fixed)
    }

    /// Each region of the line against ±2 %, the edges included where the rule says.
    #[test]
    fn an_interval_alone_is_called_by_where_it_lies() {
        assert_eq!(by_interval(1.021, 1.2), Call::Slower);
        assert_eq!(by_interval(0.8, 0.979), Call::Faster);
        assert_eq!(by_interval(0.98, 1.02), Call::Equivalent);
        assert_eq!(by_interval(0.99, 1.01), Call::Equivalent);
        assert_eq!(by_interval(1.01, 1.05), Call::Unsettled);
        assert_eq!(by_interval(0.95, 0.999), Call::Unsettled);
        assert_eq!(by_interval(0.97, 1.05), Call::NotShown);
        // The edge of the SESOI is inside it: exactly 1.02 is not beyond.
        assert_eq!(by_interval(1.02, 1.3), Call::Unsettled);
    }

    #[test]
    fn the_means_tests_show_equivalence_and_change_inside_the_sesoi() {
        let tests = |tost_p, welch_p| Evidence::Tests {
            tost_p,
            welch_p,
            alpha: 0.001,
        };
        let inside = ci(0.99, 1.015);
        assert_eq!(
            decide(inside, 0.02, tests(0.0001, 0.5), Look::Fixed),
            Call::Equivalent
        );
        // TOST at a stricter level than the interval: inside ±SESOI is not enough.
        assert_eq!(
            decide(inside, 0.02, tests(0.01, 0.5), Look::Fixed),
            Call::NotShown
        );
        assert_eq!(
            decide(ci(1.001, 1.05), 0.02, tests(0.5, 0.0001), Look::Fixed),
            Call::Unsettled
        );
        // The interval decides slower whatever the tests say.
        assert_eq!(
            decide(ci(1.1, 1.2), 0.02, tests(0.0001, 0.5), Look::Fixed),
            Call::Slower
        );
    }

    #[test]
    fn a_point_is_never_equivalent() {
        let point = |r| decide(ci(r, r), 0.02, Evidence::Point, Look::Fixed);
        assert_eq!(point(1.03), Call::Slower);
        assert_eq!(point(0.97), Call::Faster);
        assert_eq!(point(1.0), Call::NotShown);
        assert_eq!(point(1.01), Call::NotShown);
    }

    #[test]
    fn an_interim_look_continues_and_the_last_does_not() {
        let wide = ci(0.97, 1.05);
        assert_eq!(
            decide(wide, 0.02, Evidence::Interval, Look::Interim),
            Call::Continue
        );
        assert_eq!(
            decide(wide, 0.02, Evidence::Interval, Look::Last),
            Call::NotShown
        );
        assert_eq!(
            decide(ci(1.03, 1.05), 0.02, Evidence::Interval, Look::Interim),
            Call::Slower
        );
        assert!(Call::Faster.is_change() && !Call::Equivalent.is_change());
    }
}
