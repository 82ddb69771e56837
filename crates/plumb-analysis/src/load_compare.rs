//! Two load results compared percentile by percentile.
//!
//! Each percentile gets a distribution-free confidence interval from order statistics: in
//! n requests, the q-quantile lies between the values at ranks n·q ∓ z·√(n·q·(1−q)) with
//! the stated confidence (the binomial normal approximation), widened to the histogram's
//! bucket edges. The ratio's interval divides the two (each side at a Bonferroni-split
//! level). It assumes independent requests; a stall makes neighbouring requests slow
//! together, so on bursty results the interval is optimistic — the verdict says so.

use hdrhistogram::Histogram;
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{
    value_at_percentile, LoadInfo, PercentileComparison, Verdict, LATENCY_PERCENTILES,
};
use plumb_stats::Interval;

/// A percentile's interval, or None when too few requests lie beyond it to say anything.
fn quantile_interval(h: &Histogram<u64>, q: f64, z: f64) -> Option<(f64, f64)> {
    let n = h.len() as f64;
    // At least ten requests beyond the percentile, or its tail is a handful of values.
    if n * (1.0 - q) < 10.0 {
        return None;
    }
    let half = z * (q * (1.0 - q) / n).sqrt();
    let lo = h.lowest_equivalent(h.value_at_quantile((q - half).max(0.0)));
    let hi = h.highest_equivalent(h.value_at_quantile((q + half).min(1.0)));
    Some((lo as f64, hi as f64))
}

pub fn compare_load(
    base: &LoadInfo,
    new: &LoadInfo,
    confidence: Confidence,
    effect: Fraction,
) -> Result<Vec<PercentileComparison>, String> {
    let (level, sesoi) = (confidence.get(), effect.get());
    if base.mode != new.mode {
        return Err(format!(
            "one result is {} loop and the other {} loop: their latencies measure different things",
            base.mode, new.mode
        ));
    }
    let (hb, hn) = (base.latency.histogram()?, new.latency.histogram()?);
    // Two intervals, each at 1 − α/2, so their ratio's interval holds at 1 − α.
    let each = 1.0 - (1.0 - level) / 2.0;
    let z = plumb_stats::normal_quantile(1.0 - (1.0 - each) / 2.0);
    let mut out = Vec::new();
    for (label, p) in LATENCY_PERCENTILES {
        let q = p / 100.0;
        let (b, n) = (
            value_at_percentile(&hb, p) as f64,
            value_at_percentile(&hn, p) as f64,
        );
        let ratio = n / b;
        let ci = match (quantile_interval(&hb, q, z), quantile_interval(&hn, q, z)) {
            (Some((blo, bhi)), Some((nlo, nhi))) if blo > 0.0 => Some(Interval {
                lo: nlo / bhi,
                hi: nhi / blo,
            }),
            _ => None,
        };
        let verdict = match ci {
            Some(ci) if ci.lo > 1.0 + sesoi => Verdict::Slower,
            Some(ci) if ci.hi < 1.0 - sesoi => Verdict::Faster,
            Some(ci) if ci.lo >= 1.0 - sesoi && ci.hi <= 1.0 + sesoi => Verdict::Equivalent,
            // Straddling the SESOI, or too few requests beyond the percentile (no interval).
            _ => Verdict::Inconclusive,
        };
        out.push(PercentileComparison {
            percentile: label.to_string(),
            base_us: b,
            new_us: n,
            ratio,
            ratio_ci: ci,
            verdict,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::LatencyDistribution;

    fn info(values: impl Iterator<Item = u64>) -> LoadInfo {
        let mut h = Histogram::<u64>::new_with_bounds(1, 3_600_000_000, 3).unwrap();
        for v in values {
            h.record(v).unwrap();
        }
        LoadInfo {
            target_rate: Some(100.0),
            achieved_rate: 100.0,
            duration_s: 10.0,
            concurrency: 10,
            connections_opened: 10,
            mean_in_flight: 1.0,
            ..LoadInfo::answered(LatencyDistribution::from_histogram(&h))
        }
    }

    /// Uniform latencies 1000..2000 µs, scaled.
    fn uniform(n: u64, scale: f64) -> impl Iterator<Item = u64> {
        (0..n).map(move |i| ((1000.0 + 1000.0 * i as f64 / n as f64) * scale) as u64)
    }

    #[test]
    fn same_distribution_is_equivalent_and_a_uniform_slowdown_is_slower() {
        let base = info(uniform(100_000, 1.0));
        let same = compare_load(
            &base,
            &info(uniform(100_000, 1.0)),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        )
        .unwrap();
        for c in &same[..3] {
            assert_eq!(c.verdict, Verdict::Equivalent, "{c:?}");
        }
        let slow = compare_load(
            &base,
            &info(uniform(100_000, 1.2)),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        )
        .unwrap();
        for c in &slow[..4] {
            assert_eq!(c.verdict, Verdict::Slower, "{c:?}");
            assert!((c.ratio - 1.2).abs() < 0.01);
        }
        // p99.99 of 100 000 requests rests on 10 values: still judged, but widely.
        assert!(slow[4].ratio_ci.is_some());
    }

    #[test]
    fn thin_tails_and_mixed_modes_are_refused_or_inconclusive() {
        let small = info(uniform(500, 1.0));
        let r = compare_load(&small, &small, Confidence::DEFAULT, Fraction::DEFAULT_SESOI).unwrap();
        assert_eq!(
            r[4].verdict,
            Verdict::Inconclusive,
            "p99.99 of 500 requests"
        );
        let mut closed = small.clone();
        closed.mode = "closed".into();
        assert!(compare_load(
            &small,
            &closed,
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI
        )
        .unwrap_err()
        .contains("closed loop"));
    }
}
