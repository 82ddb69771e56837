//! The verdict (proptest): invariant under writing both sides in another unit — the same
//! runs in ns and in ns × 1000 get the same verdict, ratio and interval — and it turns
//! over when the sides swap: slower one way is faster the other.
use plumb_analysis::judge;
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{Benchmark, BenchmarkKind, Metric, Verdict};
use proptest::prelude::*;

/// A command's runs in ns: 2 to 40 of them around a centre, spread up to ±50 %.
fn runs() -> impl Strategy<Value = Vec<u64>> {
    (
        1_000u64..10_000_000,
        prop::collection::vec(0.5f64..1.5, 2..40),
    )
        .prop_map(|(centre, f)| f.iter().map(|x| (centre as f64 * x) as u64).collect())
}

fn bench(times: &[u64], scale: u64) -> Benchmark {
    Benchmark::of_wall_times("a", BenchmarkKind::Command, times.iter().map(|t| t * scale))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()) || (a.is_nan() && b.is_nan())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_verdict_does_not_depend_on_the_unit(x in runs(), y in runs(), sesoi in 0.005f64..0.2) {
        let (level, effect) = (Confidence::DEFAULT, Fraction::new(sesoi).unwrap());
        let ns = judge(&bench(&x, 1), &bench(&y, 1), &Metric::WallTime, level, effect);
        let scaled = judge(&bench(&x, 1000), &bench(&y, 1000), &Metric::WallTime, level, effect);
        prop_assert_eq!(ns.verdict, scaled.verdict);
        // The same kind of reason (its figures, a baseline's mean, are in the unit).
        prop_assert_eq!(std::mem::discriminant(&ns.reason), std::mem::discriminant(&scaled.reason));
        prop_assert!(close(ns.ratio, scaled.ratio));
        prop_assert!(close(ns.welch_p, scaled.welch_p) && close(ns.tost_p, scaled.tost_p));
        match (ns.ratio_ci, scaled.ratio_ci) {
            (Some(a), Some(b)) => prop_assert!(close(a.lo, b.lo) && close(a.hi, b.hi)),
            (a, b) => prop_assert_eq!(a.is_some(), b.is_some()),
        }
    }

    #[test]
    fn slower_one_way_is_faster_the_other(x in runs(), y in runs()) {
        let (level, effect) = (Confidence::DEFAULT, Fraction::DEFAULT_SESOI);
        let ab = judge(&bench(&x, 1), &bench(&y, 1), &Metric::WallTime, level, effect);
        let ba = judge(&bench(&y, 1), &bench(&x, 1), &Metric::WallTime, level, effect);
        // A change beyond the SESOI one way is beyond it the other way too, when both
        // means are told from zero (an interval whose lower end is above 0: it inverts).
        // A candidate not told from zero can still be called faster, its swap then has a
        // baseline near zero and is not called: conservative, not contradictory. Near
        // the SESOI's edge 1/(1 + s) ≠ 1 − s, so calls within 1 ± 2·SESOI are left out.
        let beyond = ab.ratio_ci.is_some_and(|i| i.lo > 0.0 && (i.lo > 1.04 || i.hi < 0.96));
        if beyond && matches!(ab.verdict, Verdict::Slower | Verdict::Faster) {
            let turned = if ab.verdict == Verdict::Slower { Verdict::Faster } else { Verdict::Slower };
            prop_assert_eq!(ba.verdict, turned);
        }
    }
}
