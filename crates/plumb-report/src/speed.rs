//! How a verdict's ratio is said: the way people say speed. A new/base ratio of 0.355 is
//! "2.82× faster" (hyperfine's words for the same runs), 1.84 is "1.84× slower", each
//! with its interval in the same terms; equivalent and inconclusive verdicts keep the
//! ratio itself, which is what their judgement read. Tables keep the ratio (mean / base).
use plumb_model::{format, Comparison, Verdict};

/// "2.82× faster [2.78, 2.86]", "1.84× slower [1.83, 1.85]", or "×1.003 [0.990, 1.016]".
pub fn speed_text(c: &Comparison) -> String {
    let inverse = |x: f64| if x > 0.0 { 1.0 / x } else { f64::INFINITY };
    match c.verdict {
        Verdict::Faster if c.ratio > 0.0 => {
            let ci = c
                .ratio_ci
                .map(|ci| format!(" [{}, {}]", times(inverse(ci.hi)), times(inverse(ci.lo))));
            format!(
                "{}× faster{}",
                times(inverse(c.ratio)),
                ci.unwrap_or_default()
            )
        }
        Verdict::Slower => {
            let ci = c
                .ratio_ci
                .map(|ci| format!(" [{}, {}]", times(ci.lo), times(ci.hi)));
            format!("{}× slower{}", times(c.ratio), ci.unwrap_or_default())
        }
        _ => ratio_text(c),
    }
}

/// The verdict in a word or a speed: "2.82× faster [2.78, 2.86]" for a speed-up or a
/// slow-down, "equivalent" or "inconclusive" otherwise (tables beside it give the ratio).
pub fn verdict_said(c: &Comparison) -> String {
    match c.verdict {
        Verdict::Faster | Verdict::Slower => speed_text(c),
        v => v.to_string(),
    }
}

/// A factor with the digits that matter: three decimals near 1 (1.023), two above.
fn times(x: f64) -> String {
    if !x.is_finite() {
        "∞".into()
    } else if x < 1.1 {
        format!("{x:.3}")
    } else {
        format!("{x:.2}")
    }
}

/// The ratio with its interval, as a table cell: `×1.84 [1.83, 1.85]`.
pub(crate) fn ratio_text(c: &Comparison) -> String {
    match c.ratio_ci {
        Some(ci) => format!(
            "×{} [{}, {}]",
            format::factor(c.ratio),
            format::factor(ci.lo),
            format::factor(ci.hi)
        ),
        None if c.ratio.is_finite() => format!("×{} [unbounded]", format::factor(c.ratio)),
        None => "-".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::Interval;

    fn judged(verdict: Verdict, ratio: f64, lo: f64, hi: f64) -> Comparison {
        Comparison {
            verdict,
            ratio,
            ratio_ci: Some(Interval { lo, hi }),
            ..Comparison::unjudged(
                "base",
                "new",
                plumb_model::quantity::Confidence::DEFAULT,
                plumb_model::quantity::Fraction::DEFAULT_SESOI,
            )
        }
    }

    #[test]
    fn a_speed_up_is_said_as_people_say_it() {
        // hyperfine's "2.82 ± 0.05 times faster" for a ratio of 0.355.
        let c = judged(Verdict::Faster, 0.355, 0.350, 0.360);
        assert_eq!(speed_text(&c), "2.82× faster [2.78, 2.86]");
        let c = judged(Verdict::Slower, 1.84, 1.834, 1.847);
        assert_eq!(speed_text(&c), "1.84× slower [1.83, 1.85]");
        let c = judged(Verdict::Slower, 1.03, 1.025, 1.035);
        assert_eq!(speed_text(&c), "1.030× slower [1.025, 1.035]");
        let c = judged(Verdict::Equivalent, 1.003, 0.99, 1.016);
        assert_eq!(speed_text(&c), "×1.003 [0.990, 1.016]");
    }
}
