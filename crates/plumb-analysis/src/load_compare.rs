//! Two load results compared percentile by percentile.
//!
//! The unit of replication is the run. A percentile of one run varies from run to run by
//! more than its requests suggest (which connections, which core, what else the machine
//! did): two runs of one server compared by per-request intervals were judged `slower`
//! at 99.9 % in two pairs of four. So a percentile is judged by the runs' own percentiles
//! (`plumb load --repeat N`): the Welch interval of the difference of their logarithms,
//! which is the ratio's interval; with one run on a side, the other side's spread stands
//! for both. One run per side cannot be judged: the verdict is inconclusive, and the
//! interval within the runs (as if requests were independent) is shown for what it is.

use crate::called::verdict_of;
use crate::Refused;
use hdrhistogram::Histogram;
use plumb_model::quantity::{Confidence, Duration, Fraction};
use plumb_model::{
    value_at_percentile, LatencyDistribution, LoadComparison, LoadInfo, PercentileComparison,
    Verdict, LATENCY_PERCENTILES,
};
use plumb_stats::{decide, Evidence, Interval, Look};

/// A percentile's interval within one run (whose tail `enough_beyond` has passed).
/// Distribution-free, from order statistics: in n requests the q-quantile lies between
/// the values at ranks n·q ∓ z·√(n·q·(1−q)) (the binomial normal approximation), widened
/// to the histogram's bucket edges. It assumes independent requests.
fn quantile_interval(h: &Histogram<u64>, q: f64, z: f64) -> (f64, f64) {
    let half = z * (q * (1.0 - q) / h.len() as f64).sqrt();
    let lo = h.lowest_equivalent(h.value_at_quantile((q - half).max(0.0)));
    let hi = h.highest_equivalent(h.value_at_quantile((q + half).min(1.0)));
    (lo as f64, hi as f64)
}

/// At least ten requests beyond the percentile, or its tail is a handful of values.
fn enough_beyond(count: u64, q: f64) -> bool {
    count as f64 * (1.0 - q) >= 10.0
}

/// The histograms of each run of `info` (the whole result when it was not repeated).
fn run_histograms(info: &LoadInfo) -> Result<Vec<Histogram<u64>>, Refused> {
    let runs: Vec<&LatencyDistribution> = if info.runs.is_empty() {
        vec![&info.latency]
    } else {
        info.runs.iter().map(|r| &r.latency).collect()
    };
    runs.into_iter()
        .map(|d| d.histogram().map_err(Refused::Histogram))
        .collect()
}

/// `new` against `base` as a comparison keeps it: compared, or why not.
pub fn load_comparison(
    benchmark: String,
    base: &LoadInfo,
    new: &LoadInfo,
    confidence: Confidence,
    effect: Fraction,
) -> LoadComparison {
    match compare_load(base, new, confidence, effect) {
        Ok(percentiles) => LoadComparison::Compared {
            benchmark,
            percentiles,
        },
        Err(why) => LoadComparison::NotCompared {
            benchmark,
            why: why.to_string(),
        },
    }
}

pub fn compare_load(
    base: &LoadInfo,
    new: &LoadInfo,
    confidence: Confidence,
    effect: Fraction,
) -> Result<Vec<PercentileComparison>, Refused> {
    if base.mode != new.mode {
        return Err(Refused::LoadModes {
            base: base.mode.to_string(),
            new: new.mode.to_string(),
        });
    }
    let (hb, hn) = (run_histograms(base)?, run_histograms(new)?);
    Ok(LATENCY_PERCENTILES
        .iter()
        .map(|(label, p)| percentile(label, *p, &hb, &hn, confidence.get(), effect.get()))
        .collect())
}

fn percentile(
    label: &str,
    p: f64,
    hb: &[Histogram<u64>],
    hn: &[Histogram<u64>],
    level: f64,
    sesoi: f64,
) -> PercentileComparison {
    let q = p / 100.0;
    let logs = |hs: &[Histogram<u64>]| -> Vec<f64> {
        hs.iter()
            .map(|h| (value_at_percentile(h, p) as f64).max(1.0).ln())
            .collect()
    };
    let (lb, ln) = (logs(hb), logs(hn));
    // One run: its own value, not exp(ln(v)) with its rounding.
    let typical = |hs: &[Histogram<u64>], l: &[f64]| match hs {
        [h] => value_at_percentile(h, p) as f64,
        _ => (l.iter().sum::<f64>() / l.len() as f64).exp(),
    };
    let (b, n) = (typical(hb, &lb), typical(hn, &ln));
    let thin = hb.iter().chain(hn).any(|h| !enough_beyond(h.len(), q));
    let (ratio_ci, judged) = if thin {
        (None, false)
    } else if hb.len() == 1 && hn.len() == 1 {
        (within_runs(&hb[0], &hn[0], q, level), false)
    } else {
        // Widened by what the histograms cannot tell apart: runs that all read 25 µs in
        // whole microseconds would otherwise give [1, 1] and "equivalent" from rounding
        // alone (issue 24, defect 20).
        let w = resolution(hb, p) + resolution(hn, p);
        let ci = plumb_stats::difference_ci(&ln, &lb, level).ok();
        (
            ci.map(|d| Interval {
                lo: (d.lo - w).exp(),
                hi: (d.hi + w).exp(),
            }),
            true,
        )
    };
    // Straddling the SESOI, one run per side, or too few requests beyond the percentile:
    // inconclusive.
    let verdict = ratio_ci
        .filter(|_| judged)
        .map_or(Verdict::Inconclusive, |ci| {
            verdict_of(decide(ci, sesoi, Evidence::Interval, Look::Fixed))
        });
    PercentileComparison {
        percentile: label.to_string(),
        base: Duration::from_nanos_f64(b * 1e3),
        new: Duration::from_nanos_f64(n * 1e3),
        ratio: n / b,
        ratio_ci,
        verdict,
        base_runs: hb.len(),
        new_runs: hn.len(),
    }
}

/// The largest relative step, in log terms, between values the runs' histograms record
/// apart at percentile `p`: their bucket's width (three significant digits), and at least
/// one unit (latencies are recorded in whole microseconds).
fn resolution(hs: &[Histogram<u64>], p: f64) -> f64 {
    hs.iter()
        .map(|h| {
            let v = value_at_percentile(h, p).max(1);
            let step = h.equivalent_range(v).max(1);
            (1.0 + step as f64 / v as f64).ln()
        })
        .fold(0.0, f64::max)
}

/// The ratio's interval within one run per side: each percentile's interval at
/// 1 − α/2, so that their ratio's holds at 1 − α. None when the base's reaches zero.
fn within_runs(b: &Histogram<u64>, n: &Histogram<u64>, q: f64, level: f64) -> Option<Interval> {
    let each = 1.0 - (1.0 - level) / 2.0;
    let z = plumb_stats::normal_quantile(1.0 - (1.0 - each) / 2.0);
    let ((blo, bhi), (nlo, nhi)) = (quantile_interval(b, q, z), quantile_interval(n, q, z));
    (blo > 0.0).then(|| Interval {
        lo: nlo / bhi,
        hi: nhi / blo,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{LatencyDistribution, LoadRun};

    fn assert_close(actual: f64, expected: f64, rel: f64) {
        assert!(
            (actual - expected).abs() <= rel * expected.abs(),
            "actual {actual} vs expected {expected}"
        );
    }

    fn distribution(values: impl Iterator<Item = u64>) -> LatencyDistribution {
        let mut h = Histogram::<u64>::new_with_bounds(1, 3_600_000_000, 3).unwrap();
        for v in values {
            h.record(v).unwrap();
        }
        LatencyDistribution::from_histogram(&h)
    }

    fn info(values: impl Iterator<Item = u64>) -> LoadInfo {
        LoadInfo {
            target_rate: Some(100.0),
            ..LoadInfo::answered(distribution(values))
        }
    }

    /// A repeated result whose run i answered every request in `per_run[i]` µs: each
    /// run's every percentile is exactly that (integers below 2048 are exact in the
    /// histogram), so the expected intervals are Welch's on the logs of these numbers.
    fn runs(per_run: &[u64]) -> LoadInfo {
        let mut i = info(per_run.iter().flat_map(|v| std::iter::repeat_n(*v, 20_000)));
        i.runs = per_run
            .iter()
            .map(|v| LoadRun {
                window: None,
                achieved_rate: 100.0,
                ok: 20_000,
                errors: 0,
                latency: distribution(std::iter::repeat_n(*v, 20_000)),
            })
            .collect();
        i
    }

    /// Uniform latencies 1000..2000 µs, scaled.
    fn uniform(n: u64, scale: f64) -> impl Iterator<Item = u64> {
        (0..n).map(move |i| ((1000.0 + 1000.0 * i as f64 / n as f64) * scale) as u64)
    }

    fn compare(base: &LoadInfo, new: &LoadInfo, sesoi: f64) -> Vec<PercentileComparison> {
        compare_load(
            base,
            new,
            Confidence::DEFAULT,
            Fraction::new(sesoi).unwrap(),
        )
        .unwrap()
    }

    const BASE: [u64; 5] = [1000, 1020, 980, 1010, 990];

    // Reference: scipy 1.17, on logs, exp of
    //   ttest_ind(log(new), log(BASE), equal_var=False).confidence_interval(0.999)
    //   new 1300,1330,1270,1310,1290 -> (1.2330398788286612, 1.370546071180785),
    //                                   ratio exp(mean diff) 1.299976138834037
    //   new 1010,1000,995,1005,990   -> (0.9534202360463941, 1.049012812321104)
    // and with one new run, the pooled interval (equal_var=True):
    //   new 1300                     -> (1.1199790354227563, 1.509258689516771)
    #[test]
    fn runs_are_judged_by_the_spread_of_their_percentiles() {
        // The reference intervals widened by the histograms' resolution, by hand: every
        // value here is below 2048 µs, recorded to the microsecond, so each side adds
        // ln(1 + 1/v) at its smallest run's value (980 µs for BASE).
        let widen = |new_min: f64| (1.0 + 1.0 / 980.0f64).ln() + (1.0 + 1.0 / new_min).ln();
        let base = runs(&BASE);
        let slow = compare(&base, &runs(&[1300, 1330, 1270, 1310, 1290]), 0.02);
        let w = widen(1270.0);
        for c in &slow[..4] {
            assert_eq!(c.verdict, Verdict::Slower, "{c:?}");
            let ci = c.ratio_ci.unwrap();
            assert_close(ci.lo, 1.2330398788286612 * (-w).exp(), 1e-9);
            assert_close(ci.hi, 1.370546071180785 * w.exp(), 1e-9);
            assert_close(c.ratio, 1.299976138834037, 1e-12);
            assert_eq!((c.base_runs, c.new_runs), (5, 5));
        }
        // 20 000 requests a run: two lie beyond p99.99, fewer than the ten it needs.
        assert_eq!(slow[4].verdict, Verdict::Inconclusive);
        assert!(slow[4].ratio_ci.is_none());

        let same = runs(&[1010, 1000, 995, 1005, 990]);
        let c = &compare(&base, &same, 0.10)[0];
        assert_eq!(c.verdict, Verdict::Equivalent);
        assert_close(
            c.ratio_ci.unwrap().lo,
            0.9534202360463941 * (-widen(990.0)).exp(),
            1e-9,
        );
        // The same runs against a 2 % SESOI: the interval straddles it.
        assert_eq!(
            compare(&base, &same, 0.02)[0].verdict,
            Verdict::Inconclusive
        );

        let one = runs(&[1300]);
        let c = &compare(&base, &one, 0.02)[0];
        assert_eq!(c.verdict, Verdict::Slower);
        let w = widen(1300.0);
        assert_close(
            c.ratio_ci.unwrap().lo,
            1.1199790354227563 * (-w).exp(),
            1e-9,
        );
        assert_close(c.ratio_ci.unwrap().hi, 1.509258689516771 * w.exp(), 1e-9);
        assert_eq!((c.base_runs, c.new_runs), (5, 1));
    }

    /// Three runs a side that all read 25 µs in whole microseconds: not "equivalent
    /// [1.000, 1.000]" from rounding, but an interval as wide as the microsecond is at
    /// 25 µs (±4 %), which straddles a 2 % SESOI (issue 24, defect 20).
    #[test]
    fn rounded_percentiles_are_not_equivalent_by_rounding() {
        let c = &compare(&runs(&[25, 25, 25]), &runs(&[25, 25, 25]), 0.02)[0];
        let ci = c.ratio_ci.unwrap();
        let w = 2.0 * (1.0 + 1.0 / 25.0f64).ln();
        assert_close(ci.lo, (-w).exp(), 1e-9);
        assert_close(ci.hi, w.exp(), 1e-9);
        assert_eq!(c.verdict, Verdict::Inconclusive);
    }

    #[test]
    fn one_run_per_side_is_inconclusive_however_clear_within_the_runs() {
        let base = info(uniform(100_000, 1.0));
        let slow = compare(&base, &info(uniform(100_000, 1.2)), 0.02);
        for c in &slow[..4] {
            assert_eq!(c.verdict, Verdict::Inconclusive, "{c:?}");
            assert!((c.ratio - 1.2).abs() < 0.01);
            // The interval within the runs is shown: as if requests were independent,
            // it is narrow around 1.2.
            let ci = c.ratio_ci.unwrap();
            assert!(ci.lo > 1.15 && ci.hi < 1.25, "{ci:?}");
            assert_eq!((c.base_runs, c.new_runs), (1, 1));
        }
        // p99.99 of 100 000 requests rests on 10 values: still shown, widely.
        assert!(slow[4].ratio_ci.is_some());
        let same = compare(&base, &info(uniform(100_000, 1.0)), 0.02);
        assert!(same.iter().all(|c| c.verdict == Verdict::Inconclusive));
        assert_eq!(same[0].ratio, 1.0);
    }

    #[test]
    fn thin_tails_and_mixed_modes_are_refused_or_inconclusive() {
        let small = info(uniform(500, 1.0));
        let r = compare(&small, &small, 0.02);
        assert_eq!(
            r[4].verdict,
            Verdict::Inconclusive,
            "p99.99 of 500 requests"
        );
        assert!(r[4].ratio_ci.is_none());
        let mut closed = small.clone();
        closed.mode = "closed".into();
        assert!(compare_load(
            &small,
            &closed,
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI
        )
        .unwrap_err()
        .to_string()
        .contains("closed loop"));
    }
}
