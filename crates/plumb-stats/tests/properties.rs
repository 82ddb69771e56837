//! Invariants of the statistics, checked on generated samples (proptest): intervals hold
//! their estimate and widen with confidence; the ratio's interval inverts when the sides
//! swap; percentiles are monotone in p and bounded by the extremes; Mann–Whitney's p does
//! not depend on which side is first; the figures of a summary are those of its samples.
use plumb_stats::*;
use proptest::prelude::*;

/// Samples as benchmarks make them: positive times, 2 to 60 of them, spread from none
/// to several times the centre.
fn samples() -> impl Strategy<Value = Vec<f64>> {
    (1.0f64..1e6, prop::collection::vec(0.0f64..3.0, 2..60))
        .prop_map(|(centre, spread)| spread.iter().map(|s| centre * (0.5 + s)).collect())
}

fn levels() -> impl Strategy<Value = (f64, f64)> {
    (0.5f64..0.9989).prop_flat_map(|lo| (Just(lo), (lo + 1e-4)..0.9999))
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-300)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_mean_interval_holds_the_mean_and_widens_with_confidence(
        xs in samples(), (lo, hi) in levels()
    ) {
        let (a, b) = (mean_ci(&xs, lo).unwrap(), mean_ci(&xs, hi).unwrap());
        prop_assert!(a.interval.contains(a.mean));
        prop_assert!(b.interval.lo <= a.interval.lo && a.interval.hi <= b.interval.hi);
        prop_assert!(a.error <= b.error);
    }

    #[test]
    fn a_quantile_interval_holds_its_estimate_and_widens_with_confidence(
        mut xs in samples(), p in 0.05f64..0.95, (lo, hi) in levels()
    ) {
        // Enough samples for both levels: repeat the sample until it has them.
        let need = samples_for_quantile(p, hi);
        prop_assume!(need <= 2000);
        while xs.len() < need {
            xs.extend_from_within(..);
        }
        let (a, b) = (quantile_ci(&xs, p, lo).unwrap(), quantile_ci(&xs, p, hi).unwrap());
        prop_assert!(a.interval.contains(a.estimate), "{a:?}");
        prop_assert!(a.coverage >= lo && b.coverage >= hi);
        prop_assert!(b.interval.lo <= a.interval.lo && a.interval.hi <= b.interval.hi);
    }

    #[test]
    fn the_ratio_interval_inverts_when_the_sides_swap(
        x in samples(), y in samples(), level in 0.5f64..0.9999
    ) {
        let ab = ratio_of_means(&x, &y, level).unwrap();
        let ba = ratio_of_means(&y, &x, level).unwrap();
        prop_assert!(close(ab.ratio, 1.0 / ba.ratio, 1e-12));
        // An interval that excludes 0 (the new mean told from zero) inverts into the
        // swapped one, which is then bounded (its baseline told from zero); one that
        // reaches 0 has no bounded inverse, and Fieller says so on the other side.
        for (i, j) in [(ab.interval, ba.interval), (ba.interval, ab.interval)] {
            if let Some(i) = i.filter(|i| i.lo > 0.0) {
                let j = j.expect("the swapped interval is bounded");
                prop_assert!(close(i.lo, 1.0 / j.hi, 1e-9), "{i:?} {j:?}");
                prop_assert!(close(i.hi, 1.0 / j.lo, 1e-9), "{i:?} {j:?}");
            }
        }
        if let Some(i) = ab.interval {
            prop_assert!(i.contains(ab.ratio));
        }
    }

    #[test]
    fn percentiles_are_monotone_in_p_and_bounded_by_the_extremes(
        mut xs in samples(), ps in prop::collection::vec(0.0f64..=100.0, 2..20)
    ) {
        xs.sort_by(f64::total_cmp);
        let mut ps = ps;
        ps.sort_by(f64::total_cmp);
        let values: Vec<f64> = ps.iter().map(|&p| percentile_of_sorted(&xs, p)).collect();
        for w in values.windows(2) {
            prop_assert!(w[0] <= w[1]);
        }
        let (min, max) = (xs[0], xs[xs.len() - 1]);
        prop_assert!(values.iter().all(|&v| min <= v && v <= max));
        prop_assert_eq!(percentile_of_sorted(&xs, 0.0), min);
        prop_assert_eq!(percentile_of_sorted(&xs, 100.0), max);
    }

    #[test]
    fn mann_whitney_does_not_depend_on_which_side_is_first(x in samples(), y in samples()) {
        let (a, b) = (mann_whitney_u(&x, &y).unwrap(), mann_whitney_u(&y, &x).unwrap());
        prop_assert!(close(a.p, b.p, 1e-12), "{} {}", a.p, b.p);
        prop_assert!((0.0..=1.0).contains(&a.p));
    }

    #[test]
    fn welch_and_tost_from_a_summary_are_those_of_its_samples(
        x in samples(), y in samples(), margin in 0.0f64..0.5
    ) {
        let (mx, my) = (Moments::of(&x).unwrap(), Moments::of(&y).unwrap());
        let (sx, sy) = (
            Moments::from_summary(mx.n, mx.mean, mx.variance.sqrt()).unwrap(),
            Moments::from_summary(my.n, my.mean, my.variance.sqrt()).unwrap(),
        );
        let w = welch_t_test(&y, &x).unwrap();
        prop_assert!(close(w.p, welch_from_moments(&sy, &sx).p, 1e-9));
        let m = margin * mx.mean;
        prop_assert!(close(tost_welch(&x, &y, m).unwrap().p, tost_from_moments(&sx, &sy, m).p, 1e-9));
    }
}
