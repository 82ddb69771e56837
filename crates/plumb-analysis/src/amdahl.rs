//! Micro against macro: what one function's speedup can do for the whole program
//! (Amdahl's law), next to what the whole did.

use crate::Refused;
use plumb_model::{AmdahlCase, AmdahlPrediction, Comparison, Profile};
use plumb_stats::{amdahl_range, amdahl_speedup, share_ci, Interval};

/// A speedup (baseline time / new time) with its interval, when one is known.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Speedup {
    pub value: f64,
    pub interval: Option<Interval>,
}

impl Speedup {
    pub fn exact(value: f64) -> Speedup {
        Speedup {
            value,
            interval: None,
        }
    }

    /// From a comparison of times: its ratio is new / baseline, a speedup the inverse.
    pub fn of(c: &Comparison) -> Option<Speedup> {
        (c.ratio.is_finite() && c.ratio > 0.0).then(|| Speedup {
            value: 1.0 / c.ratio,
            interval: c.ratio_ci.filter(|i| i.lo > 0.0).map(|i| Interval {
                lo: 1.0 / i.hi,
                hi: 1.0 / i.lo,
            }),
        })
    }

    /// `2`, `2x`, `2×`: twice as fast; `None` when `given` is not a number (a file).
    pub fn given(given: &str) -> Option<Result<Speedup, Refused>> {
        let v = given.trim_end_matches(['x', '×']).parse::<f64>().ok()?;
        Some(if v.is_finite() && v > 0.0 {
            Ok(Speedup::exact(v))
        } else {
            Err(Refused::SpeedupGiven(format!(
                "a speedup is above 0, not {given}"
            )))
        })
    }

    /// The speedup of the comparison of `comparisons` (from `file`) that `bench` names,
    /// or of its only one.
    pub fn chosen(
        comparisons: &[Comparison],
        file: &str,
        bench: Option<&str>,
    ) -> Result<Speedup, Refused> {
        let chosen: Vec<_> = (comparisons.iter())
            .filter(|c| bench.is_none_or(|b| c.candidate == b || c.baseline == b))
            .collect();
        let why = match chosen.as_slice() {
            [c] => {
                return Speedup::of(c).ok_or_else(|| {
                    Refused::SpeedupGiven(format!("{file}: the comparison has no ratio"))
                })
            }
            [] => format!(
                "{file} has no comparison{}",
                bench.map_or(String::new(), |b| format!(" of {b:?}"))
            ),
            many => format!(
                "{file} has {} comparisons: choose one with {file}#NAME ({})",
                many.len(),
                (many.iter().map(|c| c.candidate.as_str()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        Err(Refused::SpeedupGiven(why))
    }

    fn range(&self) -> Interval {
        self.interval.unwrap_or(Interval {
            lo: self.value,
            hi: self.value,
        })
    }
}

/// The end-to-end speedup Amdahl's law allows when `function`, which is on the stack in
/// share f of `profile`'s samples (its total, callees included, as a micro-benchmark of
/// it times them too), becomes `micro` faster: 1 / (1 − f + f/S). Its interval spans f's
/// sampling interval at `confidence` and S's interval. With `measured`, says whether the
/// whole did as predicted: their intervals meet, or the measured one lies below (less)
/// or above (more).
pub fn predict(
    function: &str,
    profile: &Profile,
    micro: Speedup,
    measured: Option<Speedup>,
    confidence: f64,
) -> Result<AmdahlPrediction, Refused> {
    let f = profile
        .function(function)
        .ok_or_else(|| Refused::NoFunction {
            function: function.to_string(),
            profile: profile.name.clone(),
            top: profile
                .functions
                .iter()
                .take(5)
                .map(|f| f.name.clone())
                .collect(),
        })?;
    if !(micro.value.is_finite() && micro.value > 0.0) {
        return Err(Refused::Speedup(micro.value));
    }
    let share = profile.share(f.total_samples);
    let share_interval =
        share_ci(f.total_samples, profile.samples, confidence).ok_or(Refused::NoSamples)?;
    let predicted_interval = amdahl_range(share_interval, micro.range());
    let case = measured.map(|m| {
        let m = m.range();
        if m.hi < predicted_interval.lo {
            AmdahlCase::LessThanPredicted
        } else if m.lo > predicted_interval.hi {
            AmdahlCase::MoreThanPredicted
        } else {
            AmdahlCase::AsPredicted
        }
    });
    Ok(AmdahlPrediction {
        function: f.name.clone(),
        share,
        share_interval,
        speedup: micro.value,
        speedup_interval: micro.range(),
        predicted: amdahl_speedup(share, micro.value),
        predicted_interval,
        measured: measured.map(|m| m.value),
        measured_interval: measured.map(|m| m.range()),
        case,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::ProfiledFunction;

    /// `heavy` on 700 of 1000 stacks (self 600: it calls `helper`, 100).
    fn profile() -> Profile {
        let row = |name: &str, s, t| ProfiledFunction {
            name: name.into(),
            module: "m".into(),
            self_samples: s,
            total_samples: t,
        };
        Profile {
            name: "prog".into(),
            samples: 1000,
            outside_samples: 0,
            lost: 0,
            stacks: Vec::new(),
            functions: vec![
                row("heavy", 600, 700),
                row("helper", 100, 100),
                row("rest", 300, 300),
            ],
            unsymbolised: Vec::new(),
            exit: None,
            annotations: Vec::new(),
            allocations: None,
        }
    }

    /// Worked by hand. f = 700/1000 = 0.7 (total, not self); S = 2:
    /// 1 / (1 − 0.7 + 0.7/2) = 1 / 0.65 = 1.53846.
    /// f's 95 % interval: 0.7 ∓ 1.95996 · sqrt(0.7 · 0.3 / 1000) = [0.67160, 0.72840];
    /// at its ends 1 / (1 − 0.67160 + 0.33580) = 1.50557 and
    /// 1 / (1 − 0.72840 + 0.36420) = 1.57282.
    #[test]
    fn the_bound_is_worked_by_hand() {
        let p = predict("heavy", &profile(), Speedup::exact(2.0), None, 0.95).unwrap();
        assert!((p.share - 0.7).abs() < 1e-12);
        assert!((p.predicted - 1.0 / 0.65).abs() < 1e-12);
        assert!((p.predicted_interval.lo - 1.50557).abs() < 1e-5, "{p:?}");
        assert!((p.predicted_interval.hi - 1.57282).abs() < 1e-5, "{p:?}");
        assert_eq!(p.case, None);
    }

    /// Measured 1.52 [1.50, 1.54] meets [1.506, 1.573]: as predicted. 1.05 [1.03, 1.07]
    /// lies below: less (the micro-benchmark's gain did not reach the whole). 1.90
    /// [1.85, 1.95] lies above: more. An exact 1.50 lies below 1.50557: less.
    #[test]
    fn the_measured_whole_is_placed_against_it() {
        let case = |value, lo, hi| {
            let m = Speedup {
                value,
                interval: Some(Interval { lo, hi }),
            };
            predict("heavy", &profile(), Speedup::exact(2.0), Some(m), 0.95)
                .unwrap()
                .case
        };
        assert_eq!(case(1.52, 1.50, 1.54), Some(AmdahlCase::AsPredicted));
        assert_eq!(case(1.05, 1.03, 1.07), Some(AmdahlCase::LessThanPredicted));
        assert_eq!(case(1.90, 1.85, 1.95), Some(AmdahlCase::MoreThanPredicted));
        let exact = predict(
            "heavy",
            &profile(),
            Speedup::exact(2.0),
            Some(Speedup::exact(1.5)),
            0.95,
        );
        assert_eq!(exact.unwrap().case, Some(AmdahlCase::LessThanPredicted));
    }

    /// A comparison's ratio 0.5 [0.45, 0.55] (new takes half the time) is a speedup of 2
    /// [1/0.55, 1/0.45] = [1.818, 2.222].
    #[test]
    fn a_comparison_ratio_becomes_a_speedup() {
        let s = Speedup {
            value: 1.0 / 0.5,
            interval: Some(Interval {
                lo: 1.0 / 0.55,
                hi: 1.0 / 0.45,
            }),
        };
        let p = predict("heavy", &profile(), s, None, 0.95).unwrap();
        // f = 0.6716, S = 1.818: 1 / (0.3284 + 0.36941) = 1.43310; f = 0.7284, S = 2.222:
        // 1 / (0.2716 + 0.32778) = 1.66839.
        assert!((p.predicted_interval.lo - 1.43310).abs() < 1e-4, "{p:?}");
        assert!((p.predicted_interval.hi - 1.66839).abs() < 1e-4, "{p:?}");
        assert!(predict("nothing", &profile(), s, None, 0.95)
            .unwrap_err()
            .to_string()
            .contains("heavy"));
    }
}
