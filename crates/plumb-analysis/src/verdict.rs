//! The verdict logic: is the candidate faster, slower, equivalent, or is it unclear?
//!
//! Written here rather than taken from a crate because it *is* the product. The quantity
//! judged is the ratio of means, with its Fieller interval at the run's confidence level;
//! the smallest effect size of interest (SESOI) says what size matters.
//!
//! * **faster / slower** only when the whole interval lies beyond 1 ∓ SESOI: the change is
//!   real *and* at least as large as what matters, with the stated confidence. A change
//!   whose interval straddles the SESOI is not called, whatever its point estimate.
//! * **equivalent** when TOST shows the difference of means within ±SESOI × mean(base).
//! * **inconclusive** otherwise, with the reason: a real difference of unsettled size,
//!   no significant difference and no proof of equivalence, a baseline whose mean is not
//!   distinguishable from zero (the ratio means nothing), or samples that cannot be used.
//!
//! Welch's t-test (on means, like the ratio) and Mann–Whitney U (on ranks) are reported;
//! when they disagree, the reason says so ("means differ, ranks do not" is a tail change).

use crate::called::by_tests;
use crate::replicates::replicates;
use crate::sides::{failed_side, sides};
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{Benchmark, Comparison, Metric, Unit, Verdict, VerdictReason};
use plumb_stats::{
    cohens_d, hodges_lehmann, mann_whitney_u, mean_ci, ratio_of_means, ratio_sd, tost_welch,
    welch_t_test,
};

/// `cand` against `base` on `metric` per operation.
pub fn judge(
    base: &Benchmark,
    cand: &Benchmark,
    metric: &Metric,
    confidence: Confidence,
    effect: Fraction,
) -> Comparison {
    if let Some(c) = crate::summary_verdict::judge_summaries(base, cand, metric, confidence, effect)
    {
        return c;
    }
    let (level, sesoi) = (confidence.get(), effect.get());
    // The ratio's interval and the tests are taken over each side's replicates (launch
    // means, batch means of an in-process run, or samples: whatever is independent). The
    // descriptive figures (RatioSD, Cohen's d, Hodges-Lehmann) describe the samples.
    let (bt, ct) = (base.analysed(metric), cand.analysed(metric));
    let (x, y) = (replicates(base, metric, &bt), replicates(cand, metric, &ct));
    let mut c = Comparison::unjudged(&base.name, &cand.name, confidence, effect);
    c.metric = metric.clone();
    // Counts and byte totals (allocations, allocated bytes) can be exactly zero: zero
    // against zero is the same, whichever of the two is asked.
    let is_amount = matches!(
        base.metrics.get(metric).map(|i| i.unit),
        Some(Unit::Count | Unit::Bytes)
    );
    if is_amount && !x.is_empty() && x.iter().all(|&v| v == 0.0) {
        return from_zero(c, &y, level);
    }
    let s = match Statistics::of(&x, &y, &bt, &ct, level, sesoi) {
        Ok(s) => s,
        Err(e) => {
            // A side that failed says so, rather than that it has too few samples.
            let failed = sides(base, cand).find_map(|(side, b)| failed_side(side, b));
            c.reason = VerdictReason::CannotCompare {
                problem: failed.unwrap_or_else(|| e.to_string()),
                baseline_n: x.len(),
                candidate_n: y.len(),
            };
            return c;
        }
    };
    c.ratio = s.ratio.ratio;
    // Fieller's set reaches below zero when the candidate's mean is not distinguishable
    // from zero; a ratio of two times cannot be negative.
    c.ratio_ci = s.ratio.interval.map(|i| plumb_stats::Interval {
        lo: i.lo.max(0.0),
        hi: i.hi,
    });
    c.ratio_sd = s.ratio_sd;
    c.welch_p = s.welch_p;
    c.mann_whitney_p = s.mann_whitney.p;
    c.mann_whitney_min_p = Some(s.mann_whitney.min_p);
    c.tost_p = s.tost_p;
    c.cohens_d = s.cohens_d;
    c.hodges_lehmann = s.hodges_lehmann;
    let Some(ci) = s.ratio.interval.filter(|_| s.base_mean > 0.0) else {
        c.reason = VerdictReason::BaselineNearZero {
            baseline_mean: s.base_mean,
            launches: base.launch_means(metric).map_or(0, |m| m.len()),
        };
        return c;
    };
    let constant =
        s.welch_p == 0.0 && plumb_stats::Summary::of(&bt).is_ok_and(|s| s.std_dev == 0.0);
    (c.verdict, c.reason) = by_tests(ci, (s.tost_p, s.welch_p, 1.0 - level), sesoi, constant);
    c
}

/// A count or byte total that is zero throughout the baseline: a ratio to it means
/// nothing, but going from none to some (a first allocation per operation) is the
/// regression to catch.
fn from_zero(mut c: Comparison, y: &[f64], level: f64) -> Comparison {
    if !y.is_empty() && y.iter().all(|&v| v == 0.0) {
        c.verdict = Verdict::Equivalent;
        c.reason = VerdictReason::BothZero;
        return c;
    }
    match mean_ci(y, level) {
        Ok(ci) if ci.interval.lo > 0.0 => {
            c.verdict = Verdict::Slower;
            c.reason = VerdictReason::FromZero {
                candidate_mean: ci.mean,
            };
        }
        Ok(_) => {
            c.reason = VerdictReason::BaselineNearZero {
                baseline_mean: 0.0,
                launches: 0,
            }
        }
        Err(e) => {
            c.reason = VerdictReason::CannotCompare {
                problem: e.to_string(),
                baseline_n: 0,
                candidate_n: y.len(),
            };
        }
    }
    c
}

/// Every figure a comparison reports: inference over the replicates `x` (base) and `y`
/// (candidate), description over the samples `bt` and `ct`.
struct Statistics {
    ratio: plumb_stats::RatioEstimate,
    base_mean: f64,
    welch_p: f64,
    mann_whitney: plumb_stats::MannWhitney,
    tost_p: f64,
    cohens_d: f64,
    hodges_lehmann: f64,
    ratio_sd: f64,
}

impl Statistics {
    fn of(
        x: &[f64],
        y: &[f64],
        bt: &[f64],
        ct: &[f64],
        level: f64,
        sesoi: f64,
    ) -> Result<Self, plumb_stats::StatsError> {
        let ratio = ratio_of_means(x, y, level)?;
        let base_mean = x.iter().sum::<f64>() / x.len() as f64;
        Ok(Statistics {
            welch_p: welch_t_test(y, x)?.p,
            mann_whitney: mann_whitney_u(y, x)?,
            tost_p: tost_welch(x, y, sesoi * base_mean.abs())?.p,
            cohens_d: cohens_d(bt, ct)?,
            hodges_lehmann: hodges_lehmann(bt, ct)?,
            ratio_sd: ratio_sd(bt, ct)?,
            ratio,
            base_mean,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::BenchmarkKind;

    fn bench(name: &str, times: impl IntoIterator<Item = f64>) -> Benchmark {
        Benchmark::of_wall_times(
            name,
            BenchmarkKind::Command,
            times.into_iter().map(|t| t as u64),
        )
    }

    fn compare(
        base: &Benchmark,
        cand: &Benchmark,
        confidence: Confidence,
        effect: Fraction,
    ) -> Comparison {
        super::judge(base, cand, &Metric::WallTime, confidence, effect)
    }

    /// A fixed, symmetric jitter pattern in ‰ (sums to 0, sd ≈ 0.6 %): the same shape for
    /// every sample, so results depend only on the means we set.
    fn around(mean: f64, n: usize, spread_permille: f64) -> Vec<f64> {
        let pattern = [-8.0, -5.0, -3.0, -1.0, 0.0, 0.0, 1.0, 3.0, 5.0, 8.0];
        (0..n)
            .map(|i| mean * (1.0 + spread_permille * pattern[i % 10] / 8000.0))
            .collect()
    }

    #[test]
    fn ten_percent_slower_is_slower() {
        let c = compare(
            &bench("a", around(1e6, 50, 10.0)),
            &bench("b", around(1.1e6, 50, 10.0)),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        assert_eq!(c.verdict, Verdict::Slower, "{:?}", c.reason);
        assert!(
            (c.ratio - 1.1).abs() < 1e-6,
            "samples are whole ns: {}",
            c.ratio
        );
        let ci = c.ratio_ci.unwrap();
        assert!(ci.lo > 1.0 && ci.hi < 1.2 && ci.contains(1.1));
    }

    #[test]
    fn ten_percent_faster_is_faster() {
        let c = compare(
            &bench("a", around(1e6, 50, 10.0)),
            &bench("b", around(0.9e6, 50, 10.0)),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        assert_eq!(c.verdict, Verdict::Faster, "{:?}", c.reason);
    }

    #[test]
    fn half_percent_with_tight_data_is_equivalent_but_said_real() {
        let c = compare(
            &bench("a", around(1e6, 200, 2.0)),
            &bench("b", around(1.005e6, 200, 2.0)),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        assert_eq!(c.verdict, Verdict::Equivalent, "{:?}", c.reason);
        assert_eq!(c.reason, VerdictReason::WithinSesoi);
        // The difference is real, only smaller than what matters.
        assert!(c.welch_p < 0.001, "{c:?}");
    }

    #[test]
    fn identical_is_equivalent() {
        let c = compare(
            &bench("a", around(1e6, 30, 10.0)),
            &bench("b", around(1e6, 30, 10.0)),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        assert_eq!(c.verdict, Verdict::Equivalent, "{:?}", c.reason);
    }

    #[test]
    fn noisy_small_samples_are_inconclusive() {
        // ±40 % spread, 5 samples, a 5 % shift: nothing can be said.
        let c = compare(
            &bench("a", around(1e6, 5, 400.0)),
            &bench("b", around(1.05e6, 5, 400.0)),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        assert_eq!(c.verdict, Verdict::Inconclusive, "{:?}", c.reason);
    }

    #[test]
    fn too_few_samples_is_inconclusive_not_a_panic() {
        let c = compare(
            &bench("a", [1.0]),
            &bench("b", [2.0, 3.0]),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        assert_eq!(c.verdict, Verdict::Inconclusive);
        assert!(
            matches!(&c.reason, VerdictReason::CannotCompare { problem, baseline_n: 1, candidate_n: 2 }
                if problem.contains("needs at least 2 samples")),
            "{:?}",
            c.reason
        );
    }

    #[test]
    fn a_change_whose_interval_straddles_the_sesoi_is_not_called() {
        // +2.5 % with a SESOI of 2 %, noisy enough that the interval reaches below 1.02.
        let c = compare(
            &bench("a", around(1e6, 30, 40.0)),
            &bench("b", around(1.025e6, 30, 40.0)),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        let ci = c.ratio_ci.unwrap();
        assert!(ci.lo < 1.02 && ci.lo > 1.0, "{ci:?}");
        assert_eq!(c.verdict, Verdict::Inconclusive, "{:?}", c.reason);
        assert_eq!(c.reason, VerdictReason::StraddlesSesoi);
    }

    #[test]
    fn slow_tail_is_named_when_ranks_do_not_move() {
        // 5 % of runs three times as slow: the mean rises 10 %, the ranks hardly move.
        // A rule that needed both tests would miss this regression.
        let base = around(1e6, 400, 10.0);
        let mut new = base.clone();
        for (i, t) in new.iter_mut().enumerate() {
            if i % 20 == 0 {
                *t *= 3.0;
            }
        }
        let c = compare(
            &bench("a", base),
            &bench("b", new),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        assert!(c.welch_p < 0.001 && c.mann_whitney_p >= 0.001, "{c:?}");
        assert_eq!(
            c.reason,
            VerdictReason::BeyondSesoi {
                constant_samples: false
            }
        );
        assert_eq!(c.verdict, Verdict::Slower, "{:?}", c.reason);
    }

    #[test]
    fn a_baseline_near_zero_gives_no_verdict() {
        let c = compare(
            &bench("a", [0.0, 0.0, 1.0, 0.0]),
            &bench("b", [300.0, 310.0, 290.0]),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        assert_eq!(c.verdict, Verdict::Inconclusive);
        assert!(
            matches!(c.reason, VerdictReason::BaselineNearZero { baseline_mean, .. } if baseline_mean == 0.25),
            "{:?}",
            c.reason
        );
    }

    fn in_process(name: &str, times: impl IntoIterator<Item = f64>) -> Benchmark {
        let mut b = bench(name, times);
        b.workload = plumb_model::Workload::empty(BenchmarkKind::Function);
        b
    }

    #[test]
    fn in_process_runs_are_judged_on_batch_means_and_described_by_samples() {
        // The candidate is 5 % slower, but only while the machine was slow: half of its
        // run at +10 %, the other half at the baseline's speed. The samples alone look like
        // a clear slowdown; batch means see two episodes and cannot call it.
        let base = around(1e6, 100, 10.0);
        let cand: Vec<f64> = around(1e6, 100, 10.0)
            .iter()
            .enumerate()
            .map(|(i, t)| if i < 50 { t * 1.1 } else { *t })
            .collect();
        let as_commands = compare(
            &bench("a", base.clone()),
            &bench("b", cand.clone()),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        assert_eq!(
            as_commands.verdict,
            Verdict::Slower,
            "{:?}",
            as_commands.reason
        );
        let (a, b) = (in_process("a", base), in_process("b", cand));
        let c = compare(&a, &b, Confidence::DEFAULT, Fraction::DEFAULT_SESOI);
        assert_eq!(c.verdict, Verdict::Inconclusive, "{:?}", c.reason);
        // RatioSD, Cohen's d and Hodges-Lehmann still describe the samples (whole ns).
        let (x, y) = (a.analysed_times_ns(), b.analysed_times_ns());
        let on_samples = plumb_stats::ratio_of_means(&x, &y, 0.999).unwrap();
        assert_eq!(c.ratio_sd, on_samples.ratio_sd);
        assert_eq!(c.cohens_d, plumb_stats::cohens_d(&x, &y).unwrap());
        assert_eq!(c.ratio_sd, as_commands.ratio_sd);
    }

    #[test]
    fn a_ratio_interval_does_not_reach_below_zero() {
        // The candidate's mean (2 ms, from one long run among zeros) is not distinguishable
        // from zero at 99.9 %: Fieller's set runs below zero, the reported interval stops
        // at it.
        let c = compare(
            &bench("a", around(1e6, 50, 10.0)),
            &bench("b", [0.0, 0.0, 0.0, 0.0, 1e7]),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        let raw = plumb_stats::ratio_of_means(
            &bench("a", around(1e6, 50, 10.0)).analysed_times_ns(),
            &[0.0, 0.0, 0.0, 0.0, 1e7],
            0.999,
        )
        .unwrap();
        assert!(raw.interval.unwrap().lo < 0.0, "{raw:?}");
        let ci = c.ratio_ci.unwrap();
        assert_eq!(ci.lo, 0.0);
        assert_eq!(ci.hi, raw.interval.unwrap().hi);
    }

    /// Any metric goes through the same code path as time: here instructions per
    /// operation, 10 % more in the candidate while its time is unchanged.
    #[test]
    fn a_counter_is_judged_like_time() {
        use plumb_model::{MetricInfo, Source};
        let with_instructions = |name: &str, instr: f64| {
            let mut b = bench(name, around(1e6, 50, 10.0));
            b.metrics.insert(
                Metric::Instructions,
                MetricInfo::known(&Metric::Instructions, Source::HardwareCounter),
            );
            let times = b.samples.values(&Metric::WallTime).unwrap().to_vec();
            let mut samples = plumb_model::Samples::default();
            for (t, i) in times.iter().zip(around(instr, 50, 5.0)) {
                samples.push(
                    1,
                    &[(Metric::WallTime, *t), (Metric::Instructions, i as u64)],
                );
            }
            b.samples = samples;
            b
        };
        let (a, b) = (with_instructions("a", 1e6), with_instructions("b", 1.1e6));
        let on_instr = super::judge(
            &a,
            &b,
            &Metric::Instructions,
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        assert_eq!(on_instr.metric, Metric::Instructions);
        assert_eq!(on_instr.verdict, Verdict::Slower, "{on_instr:?}");
        assert!((on_instr.ratio - 1.1).abs() < 1e-6, "{}", on_instr.ratio);
        let on_time = compare(&a, &b, Confidence::DEFAULT, Fraction::DEFAULT_SESOI);
        assert_eq!(on_time.verdict, Verdict::Equivalent, "{on_time:?}");
    }

    /// A count that was zero and is not any more is a regression, whatever the ratio; the
    /// same for allocations and allocated bytes (issue 45: 0 → 0 bytes was inconclusive).
    #[test]
    fn a_first_allocation_is_slower_and_none_on_both_sides_is_equivalent() {
        for metric in [Metric::Allocations, Metric::AllocatedBytes] {
            first_allocation_judged_on(metric);
        }
    }

    fn first_allocation_judged_on(metric: Metric) {
        use plumb_model::MetricInfo;
        let allocating = |name: &str, per_op: &[u64]| {
            let mut b = bench(name, around(1e6, per_op.len(), 10.0));
            b.metrics
                .insert(metric.clone(), MetricInfo::measured(&metric));
            let times = b.samples.values(&Metric::WallTime).unwrap().to_vec();
            let mut samples = plumb_model::Samples::default();
            for (t, a) in times.iter().zip(per_op) {
                samples.push(1, &[(Metric::WallTime, *t), (metric.clone(), *a)]);
            }
            b.samples = samples;
            b
        };
        let none = allocating("a", &[0; 20]);
        let one = allocating("b", &[1; 20]);
        let cmp = |a: &Benchmark, b: &Benchmark| {
            super::judge(a, b, &metric, Confidence::DEFAULT, Fraction::DEFAULT_SESOI)
        };
        let c = cmp(&none, &one);
        assert_eq!(c.verdict, Verdict::Slower, "{c:?}");
        assert_eq!(
            c.reason,
            VerdictReason::FromZero {
                candidate_mean: 1.0
            }
        );
        let c = cmp(&none, &allocating("c", &[0; 20]));
        assert_eq!(
            (c.verdict, c.reason),
            (Verdict::Equivalent, VerdictReason::BothZero),
            "{metric:?}"
        );
        // One allocation in 20 samples is not distinguishable from none at 99.9 %.
        let mut rare = [0; 20];
        rare[7] = 1;
        let c = cmp(&none, &allocating("d", &rare));
        assert_eq!(c.verdict, Verdict::Inconclusive, "{c:?}");
        // Going down to zero is an ordinary ratio: faster.
        assert_eq!(cmp(&one, &none).verdict, Verdict::Faster);
    }
}
