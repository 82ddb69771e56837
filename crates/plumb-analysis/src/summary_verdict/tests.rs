//! Summary verdicts against scipy's `ttest_ind_from_stats`, a numerically inverted
//! Fieller interval, TOST by hand from scipy's t, and hand-worked interval ratios.
use super::*;
use plumb_model::{BenchmarkKind, Question, ReportedInterval, Verdict};

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
    judge_at(base, cand, Confidence::DEFAULT.get())
}

fn judge_at(base: &Benchmark, cand: &Benchmark, level: f64) -> Comparison {
    let (c, e) = (Confidence::new(level).unwrap(), Fraction::DEFAULT_SESOI);
    judge_summaries(base, cand, &Metric::WallTime, c, e).expect("a summary side")
}

fn problem(c: &Comparison) -> &str {
    match &c.reason {
        VerdictReason::CannotCompare { problem, .. } => problem,
        other => panic!("{other:?}"),
    }
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
    // Replicates are not samples: no Cohen's d or ratio spread from a mix of the two.
    assert!(c.cohens_d.is_nan() && c.ratio_sd.is_nan());
    // An in-process run of 40 samples: its ten batch means are the replicates.
    let times = (0..40).map(|i| 95 + i % 10);
    let base = Benchmark::of_wall_times("a", BenchmarkKind::Function, times);
    let batches = plumb_stats::batch_means(&base.analysed(&Metric::WallTime), 10);
    let c = judge(&base, &mean_sd_n("a", 130.0, 5.0, 50));
    let n = plumb_stats::Moments::of(&batches).unwrap();
    let b = plumb_stats::Moments::from_summary(50, 130.0, 5.0).unwrap();
    let by_hand = plumb_stats::welch_from_moments(&b, &n).p;
    assert_close(c.welch_p, by_hand, 1e-12);
}

// Hand-worked: medians 100 in [98, 103] and 120 in [117, 124], each at 99 %: the ratio
// lies in [117/103, 124/98] = [1.13592…, 1.26530…] whenever both hold, at 98 %.
#[test]
fn stated_intervals_bound_the_ratio_at_their_levels_together() {
    let (base, cand) = (
        median_in("a", 100.0, 98.0, 103.0, 0.99),
        median_in("a", 120.0, 117.0, 124.0, 0.99),
    );
    // At the default 99.9 % they do not hold: no verdict, and the level they do hold at.
    let c = judge(&base, &cand);
    assert_eq!(
        problem(&c),
        "the two intervals of the median hold together at 98%, below the 99.9% asked (judge at that level with --confidence 98%)"
    );
    assert!(c.ratio.is_nan(), "no ratio without an interval to hold it");
    let c = judge_at(&base, &cand, 0.98);
    assert_eq!(c.verdict, Verdict::Slower);
    assert_close(c.level.get(), 0.98, 1e-12);
    assert_eq!(c.question, Question::Typical);
    let ci = c.ratio_ci.unwrap();
    assert_close(ci.lo, 117.0 / 103.0, 1e-12);
    assert_close(ci.hi, 124.0 / 98.0, 1e-12);
    // [99.5/101, 100.5/99] = [0.98515, 1.01515]: within ±2 %.
    let c = judge_at(
        &median_in("a", 100.0, 99.0, 101.0, 0.99),
        &median_in("a", 100.0, 99.5, 100.5, 0.99),
        0.98,
    );
    assert_eq!(c.verdict, Verdict::Equivalent);
    // [101.6/100.5, 104/99.5] = [1.01095, 1.04523]: excludes 1, straddles 1.02.
    let c = judge_at(
        &median_in("a", 100.0, 99.5, 100.5, 0.99),
        &median_in("a", 103.0, 101.6, 104.0, 0.99),
        0.98,
    );
    assert_eq!(c.reason, VerdictReason::StraddlesSesoi);
    // Overlapping and wider than the SESOI: not shown.
    let c = judge_at(
        &median_in("a", 100.0, 90.0, 110.0, 0.99),
        &median_in("a", 101.0, 91.0, 111.0, 0.99),
        0.98,
    );
    assert_eq!(c.reason, VerdictReason::NotShown);
    // Two 60 % intervals hold together at 20 %: no level to speak of.
    let c = judge_at(
        &median_in("a", 100.0, 99.0, 101.0, 0.6),
        &median_in("a", 150.0, 149.0, 151.0, 0.6),
        0.9,
    );
    assert!(
        problem(&c).contains("hold together at 20.0%, below the 90% asked"),
        "{}",
        problem(&c)
    );
}

/// asv with samples on one commit and without on the next: the samples' own
/// order-statistic interval of the median at the summary's 99 %.
#[test]
fn samples_meet_a_stated_interval_with_their_own_at_its_level() {
    // 30 samples 100..=129: median 114.5; at 99 % the order statistics of ranks 8 and 23
    // (scipy binom(30, ½): P(B ≤ 7) = 0.00261 ≤ 0.005 < P(B ≤ 8) = 0.00806): [107, 122].
    let base = Benchmark::of_wall_times("a", BenchmarkKind::Command, 100..130);
    // Asked 98 %: the samples' own interval at 1 − (0.02 − 0.01) = 99 %.
    let c = judge_at(&base, &median_in("a", 160.0, 155.0, 165.0, 0.99), 0.98);
    assert_eq!(c.verdict, Verdict::Slower);
    assert_close(c.level.get(), 0.98, 1e-12);
    let ci = c.ratio_ci.unwrap();
    assert_close(ci.lo, 155.0 / 122.0, 1e-12);
    assert_close(ci.hi, 165.0 / 107.0, 1e-12);
    assert_close(c.ratio, 160.0 / 114.5, 1e-12);
}

/// A mean's interval at 95 % met by samples' own Student interval at 1 − (0.10 − 0.05).
// Reference (scipy 1.17): 30 values 100..=129, mean 114.5, sd 8.803408430829505,
// t.ppf(0.975, 29) → [111.21275326754026, 117.78724673245974]; the ratio's interval
// [145 / 117.787…, 155 / 111.212…] = [1.2310331043678346, 1.39372504902493].
#[test]
fn samples_meet_a_stated_mean_interval_with_their_replicates_own() {
    let base = Benchmark::of_wall_times("a", BenchmarkKind::Command, 100..130);
    let mut cand = median_in("a", 150.0, 145.0, 155.0, 0.95);
    let r = cand.reported.get_mut(&Metric::WallTime).unwrap();
    (r.mean, r.median) = (Some(150.0), None);
    r.interval.as_mut().unwrap().of = ReportedStatistic::Mean;
    let c = judge_at(&base, &cand, 0.90);
    assert_eq!(c.verdict, Verdict::Slower);
    let ci = c.ratio_ci.unwrap();
    assert_close(ci.lo, 1.2310331043678346, 1e-9);
    assert_close(ci.hi, 1.39372504902493, 1e-9);
    assert_eq!(c.question, Question::Mean);
}

#[test]
fn a_failed_side_or_a_summary_of_other_metrics_says_so() {
    let mut failed = Benchmark::new("a", BenchmarkKind::Function);
    failed.set_function(plumb_model::FunctionInfo {
        failure: Some("Catch2: boom".into()),
        ..plumb_model::FunctionInfo::default()
    });
    let c = judge(&failed, &mean_sd_n("a", 1.0, 0.1, 10));
    assert_eq!(problem(&c), "the baseline failed: Catch2: boom");
    let mut memory = Benchmark::new("a", BenchmarkKind::Function);
    let named = Metric::Named("memory".into());
    memory.reported.insert(
        named,
        ReportedSummary {
            value: Some(8056.0),
            ..Default::default()
        },
    );
    let c = judge(&memory, &memory);
    assert!(
        problem(&c).contains("only its harness's summary of memory (compare that with --metric)"),
        "{}",
        problem(&c)
    );
    // One sample against a value: what each lacks, counted right.
    let one = Benchmark::of_wall_times("a", BenchmarkKind::Command, [5]);
    let value = reported(
        "a",
        ReportedSummary {
            value: Some(6.0),
            ..Default::default()
        },
    );
    let c = judge(&one, &value);
    assert!(
        problem(&c).ends_with("\"a\" has 1 sample"),
        "{}",
        problem(&c)
    );
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
