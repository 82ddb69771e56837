//! Summary verdicts against scipy's `ttest_ind_from_stats`, a numerically inverted
//! Fieller interval, TOST by hand from scipy's t, and hand-worked interval ratios.
use super::*;
use plumb_model::{BenchmarkKind, ReportedInterval};

fn assert_close(actual: f64, expected: f64, rel: f64) {
    assert!(
        (actual - expected).abs() <= rel * expected.abs(),
        "{actual} vs {expected}"
    );
}

fn reported(name: &str, s: ReportedSummary) -> Benchmark {
    let mut b = Benchmark::new(name, BenchmarkKind::Function);
    b.reported.insert(Metric::WallTime, s);
    b
}

fn mean_sd_n(name: &str, mean: f64, sd: f64, n: u64) -> Benchmark {
    reported(
        name,
        ReportedSummary {
            n: Some(n),
            mean: Some(mean),
            std_dev: Some(sd),
            ..ReportedSummary::default()
        },
    )
}

fn median_in(name: &str, median: f64, lo: f64, hi: f64, level: f64) -> Benchmark {
    reported(
        name,
        ReportedSummary {
            median: Some(median),
            interval: Some(ReportedInterval {
                of: ReportedStatistic::Median,
                lo,
                hi,
                level: Confidence::new(level),
            }),
            ..ReportedSummary::default()
        },
    )
}

fn judge(base: &Benchmark, cand: &Benchmark) -> Comparison {
    let (c, e) = (Confidence::DEFAULT, Fraction::DEFAULT_SESOI);
    judge_summaries(base, cand, &Metric::WallTime, c, e).expect("a summary side")
}

// Reference (scipy 1.17): ttest_ind_from_stats(110, 6, 100, 100, 5, 100, equal_var=False)
//   p 1.5813944325582804e-27; Fieller at 99.9 % by brentq on
//   (mc - ρ·mb)² - t²·(vc + ρ²·vb) = 0: [1.0731099738410446, 1.1275040202776072]
#[test]
fn mean_sd_and_count_are_judged_as_samples_are() {
    let c = judge(
        &mean_sd_n("a", 100.0, 5.0, 100),
        &mean_sd_n("b", 110.0, 6.0, 100),
    );
    assert_eq!(c.verdict, Verdict::Slower);
    assert_eq!(c.from_summaries, Some(SummaryBasis::Moments));
    assert_close(c.ratio, 1.1, 1e-12);
    let ci = c.ratio_ci.unwrap();
    assert_close(ci.lo, 1.0731099738410446, 1e-9);
    assert_close(ci.hi, 1.1275040202776072, 1e-9);
    assert_close(c.welch_p, 1.5813944325582804e-27, 1e-6);
    assert!(c.mann_whitney_p.is_nan() && c.hodges_lehmann.is_nan());
}

// Reference (scipy 1.17): ttest_ind_from_stats(100.5, 5, 1000, 100, 5, 1000) p
// 0.025457331632895718; TOST at ±2 (2 % of 100): max of t.sf((0.5+2)/se, df) and
// t.sf((2-0.5)/se, df) = 1.2785522604437703e-11.
#[test]
fn a_summary_can_show_equivalence() {
    let c = judge(
        &mean_sd_n("a", 100.0, 5.0, 1000),
        &mean_sd_n("b", 100.5, 5.0, 1000),
    );
    assert_eq!(c.verdict, Verdict::Equivalent);
    assert_close(c.welch_p, 0.025457331632895718, 1e-6);
    assert_close(c.tost_p, 1.2785522604437703e-11, 1e-5);
}

#[test]
fn a_side_with_samples_is_judged_against_a_summary_by_its_replicates() {
    // Commands: each sample its own replicate. 20 samples 95..=104 twice: mean 99.5.
    let times = (0..20).map(|i| 95 + i % 10);
    let base = Benchmark::of_wall_times("a", BenchmarkKind::Command, times);
    let c = judge(&base, &mean_sd_n("a", 130.0, 5.0, 50));
    assert_eq!(c.verdict, Verdict::Slower);
    assert_close(c.ratio, 130.0 / 99.5, 1e-12);
}

// Hand-worked: medians 100 in [98, 103] and 120 in [117, 124], each at 99 %: the ratio
// lies in [117/103, 124/98] = [1.13592…, 1.26530…] whenever both hold, at 98 %.
#[test]
fn stated_intervals_bound_the_ratio_at_their_levels_together() {
    let c = judge(
        &median_in("a", 100.0, 98.0, 103.0, 0.99),
        &median_in("a", 120.0, 117.0, 124.0, 0.99),
    );
    assert_eq!(c.verdict, Verdict::Slower);
    assert_close(c.level.get(), 0.98, 1e-12);
    assert_eq!(c.question, Question::Typical);
    let ci = c.ratio_ci.unwrap();
    assert_close(ci.lo, 117.0 / 103.0, 1e-12);
    assert_close(ci.hi, 124.0 / 98.0, 1e-12);
    // [99.5/101, 100.5/99] = [0.98515, 1.01515]: within ±2 %.
    let c = judge(
        &median_in("a", 100.0, 99.0, 101.0, 0.99),
        &median_in("a", 100.0, 99.5, 100.5, 0.99),
    );
    assert_eq!(c.verdict, Verdict::Equivalent);
    // Overlapping and wider than the SESOI: not shown.
    let c = judge(
        &median_in("a", 100.0, 90.0, 110.0, 0.99),
        &median_in("a", 101.0, 91.0, 111.0, 0.99),
    );
    assert_eq!(c.reason, VerdictReason::NotShown);
}

/// asv with samples on one commit and without on the next: the samples' own
/// order-statistic interval of the median at the summary's 99 %.
#[test]
fn samples_meet_a_stated_interval_with_their_own_at_its_level() {
    // 30 samples 100..=129: median 114.5; at 99 % the order statistics of ranks 8 and 23
    // (scipy binom(30, ½): P(B ≤ 7) = 0.00261 ≤ 0.005 < P(B ≤ 8) = 0.00806): [107, 122].
    let base = Benchmark::of_wall_times("a", BenchmarkKind::Command, 100..130);
    let c = judge(&base, &median_in("a", 160.0, 155.0, 165.0, 0.99));
    assert_eq!(c.verdict, Verdict::Slower);
    assert_close(c.level.get(), 0.98, 1e-12);
    let ci = c.ratio_ci.unwrap();
    assert_close(ci.lo, 155.0 / 122.0, 1e-12);
    assert_close(ci.hi, 165.0 / 107.0, 1e-12);
    assert_close(c.ratio, 160.0 / 114.5, 1e-12);
}

#[test]
fn one_value_a_side_is_no_verdict_and_says_why() {
    let value = |v| {
        reported(
            "a",
            ReportedSummary {
                value: Some(v),
                ..ReportedSummary::default()
            },
        )
    };
    let c = judge(&value(100.0), &value(150.0));
    assert_eq!(c.verdict, Verdict::Inconclusive);
    let VerdictReason::CannotCompare { problem, .. } = &c.reason else {
        panic!("{:?}", c.reason)
    };
    assert!(
        problem.ends_with("\"a\" has a value of an unnamed statistic"),
        "{problem}"
    );
    // A mean interval against a median interval: different statistics.
    let mut mean = median_in("a", 100.0, 98.0, 102.0, 0.95);
    let r = mean.reported.get_mut(&Metric::WallTime).unwrap();
    r.mean = Some(100.0);
    r.interval.as_mut().unwrap().of = ReportedStatistic::Mean;
    let c = judge(&mean, &median_in("a", 100.0, 98.0, 102.0, 0.95));
    assert!(matches!(c.reason, VerdictReason::CannotCompare { .. }));
}

#[test]
fn samples_on_both_sides_are_not_judged_here() {
    let a = Benchmark::of_wall_times("a", BenchmarkKind::Command, [1, 2, 3]);
    let (c, e) = (Confidence::DEFAULT, Fraction::DEFAULT_SESOI);
    assert!(judge_summaries(&a, &a, &Metric::WallTime, c, e).is_none());
}

fn counted(name: &str, instructions: u64) -> Benchmark {
    let mut b = Benchmark::new(name, BenchmarkKind::Function);
    let mut sim = plumb_model::SimulatedCounts::new("callgrind", None);
    let info =
        plumb_model::MetricInfo::known(&Metric::Instructions, plumb_model::Source::Simulated);
    sim.metrics.insert(Metric::Instructions, info);
    sim.samples.push(1, &[(Metric::Instructions, instructions)]);
    b.simulated = Some(sim);
    b
}

/// gungraun's counts: 242 → 961 instructions a call is 3.97× more, beyond ±2 %; 1000 →
/// 1010 is within it. Exact counts: the interval is the ratio itself.
#[test]
fn simulated_counts_alone_are_judged_by_their_ratio_on_instructions() {
    let c = judge(&counted("a", 242), &counted("a", 961));
    assert_eq!(
        (c.verdict, c.metric.clone()),
        (Verdict::Slower, Metric::Instructions)
    );
    assert_eq!(c.from_summaries, Some(SummaryBasis::SimulatedCounts));
    assert_close(c.ratio, 961.0 / 242.0, 1e-12);
    assert_eq!(c.ratio_ci.map(|i| i.lo), Some(c.ratio));
    let c = judge(&counted("a", 1000), &counted("a", 1010));
    assert_eq!(c.verdict, Verdict::Equivalent);
}
