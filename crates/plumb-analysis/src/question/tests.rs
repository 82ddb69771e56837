//! Verdicts by question on crafted data where the median and p99 disagree: a faster body
//! with a heavier tail, and the reverse; a percentile the samples cannot bound; the
//! minimum's margin; the note that the answer depends on the question.
use super::*;
use plumb_model::{BenchmarkKind, Finding};

const LEVEL: Confidence = Confidence::DEFAULT;

/// 2,000 runs: a body of `body` + 0..9 ns and a `tail_share` of runs at `tail` + 0..9.
fn bench(name: &str, body: u64, tail: u64, tail_share: f64) -> Benchmark {
    let n = 2_000usize;
    let tail_runs = (n as f64 * tail_share).round() as usize;
    let times = (0..n).map(|i| {
        let jitter = (i * 7 % 10) as u64;
        // Tail runs spread through the run order (every k-th), not bunched at the end.
        let in_tail =
            tail_runs > 0 && i % (n / tail_runs.max(1)) == 0 && i / (n / tail_runs) < tail_runs;
        if in_tail {
            tail + jitter
        } else {
            body + jitter
        }
    });
    let mut b = Benchmark::of_wall_times(name, BenchmarkKind::Command, times);
    crate::analyse_benchmark(
        &mut b,
        &crate::AnalysisConfig::new(LEVEL, Fraction::DEFAULT_SESOI),
    );
    b
}

fn asked(base: &Benchmark, cand: &Benchmark, q: Question) -> Comparison {
    judge_question(
        base,
        cand,
        &Metric::WallTime,
        LEVEL,
        Fraction::DEFAULT_SESOI,
        q,
        None,
    )
}

#[test]
fn a_faster_body_with_a_heavier_tail() {
    let base = bench("a", 1000, 1500, 0.015);
    let cand = bench("b", 850, 3000, 0.03);
    let typical = asked(&base, &cand, Question::Typical);
    assert_eq!(typical.verdict, Verdict::Faster, "{typical:?}");
    assert!(matches!(typical.reason, VerdictReason::Quantile { .. }));
    // The ratio and its interval from each side's own order-statistic interval at
    // 1 − α/2, computed here independently of by_quantile.
    let each = 1.0 - LEVEL.alpha() / 2.0;
    let b = quantile_ci(&base.times_ns(), 0.5, each).unwrap();
    let n = quantile_ci(&cand.times_ns(), 0.5, each).unwrap();
    assert_eq!(typical.ratio, n.estimate / b.estimate);
    let ci = typical.ratio_ci.unwrap();
    assert_eq!(
        (ci.lo, ci.hi),
        (n.interval.lo / b.interval.hi, n.interval.hi / b.interval.lo)
    );
    let worst = asked(&base, &cand, Question::Worst(99.0));
    assert_eq!(worst.verdict, Verdict::Slower, "{worst:?}");
    assert!(worst.ratio > 1.9, "{}", worst.ratio);
    let note = question_matters(&base, &cand, &typical, None, None).expect("the answers differ");
    let Finding::QuestionMatters(m) = &note.finding else {
        panic!("{note:?}")
    };
    assert_eq!(m.asked, "typical case (the median)");
    let said: Vec<(String, Verdict)> = m
        .answers
        .iter()
        .map(|a| (a.statistic.clone(), a.verdict))
        .collect();
    assert!(
        said.contains(&("median".into(), Verdict::Faster)),
        "{said:?}"
    );
    assert!(said.contains(&("p99".into(), Verdict::Slower)), "{said:?}");
}

#[test]
fn a_slower_body_with_a_thinner_tail() {
    let base = bench("a", 1000, 4000, 0.03);
    let cand = bench("b", 1100, 0, 0.0);
    assert_eq!(
        asked(&base, &cand, Question::Typical).verdict,
        Verdict::Slower
    );
    assert_eq!(
        asked(&base, &cand, Question::Worst(99.0)).verdict,
        Verdict::Faster
    );
    // The mean: 0.97 × 1004.5 + 0.03 × 4004.5 = 1094.5 against 1104.5: within 2 %.
    let mean = asked(&base, &cand, Question::Mean);
    assert_eq!(mean.question, Question::Mean);
    assert!(question_matters(&base, &cand, &mean, None, None).is_some());
}

#[test]
fn the_same_distribution_is_equivalent_and_no_question_matters() {
    let base = bench("a", 1000, 1200, 0.02);
    let cand = bench("b", 1000, 1200, 0.02);
    for q in [Question::Typical, Question::Worst(95.0), Question::Mean] {
        assert_eq!(asked(&base, &cand, q).verdict, Verdict::Equivalent, "{q}");
    }
    let c = asked(&base, &cand, Question::Typical);
    assert!(question_matters(&base, &cand, &c, None, None).is_none());
}

#[test]
fn p999_from_fifty_samples_is_no_verdict() {
    let times = |k: u64| (0..50).map(move |i| 1000 * k + i);
    let base = Benchmark::of_wall_times("a", BenchmarkKind::Command, times(1));
    let cand = Benchmark::of_wall_times("b", BenchmarkKind::Command, times(2));
    let c = asked(&base, &cand, Question::Worst(99.9));
    assert_eq!(c.verdict, Verdict::Inconclusive);
    let VerdictReason::TooFewForQuantile {
        statistic,
        needed,
        baseline_n,
        ..
    } = &c.reason
    else {
        panic!("{:?}", c.reason)
    };
    assert_eq!((statistic.as_str(), *baseline_n), ("p99.9", 50));
    // 0.999ⁿ ≤ 0.00025 (each side at 1 − α/2, so each tail α/4): n ≥ ln 0.00025 / ln 0.999 = 8289.9.
    assert_eq!(*needed, 8_290);
    assert!(c.ratio.is_nan() && c.ratio_ci.is_none());
}

#[test]
fn the_minimum_is_called_only_beyond_the_sesoi_and_the_resolution() {
    let base = bench("a", 1000, 1500, 0.01);
    let cand = bench("b", 970, 1500, 0.01);
    // Minima 1000 and 970: −3 %, beyond 2 %.
    let c = asked(&base, &cand, Question::Best);
    assert_eq!((c.verdict, c.ratio), (Verdict::Faster, 0.97));
    assert!(c.ratio_ci.is_none());
    // A 20 ns clock adds 2 % of 1000 ns to the margin: 4 %, and −3 % is not called.
    let coarse = judge_question(
        &base,
        &cand,
        &Metric::WallTime,
        LEVEL,
        Fraction::DEFAULT_SESOI,
        Question::Best,
        Some(plumb_model::quantity::Duration::from_nanos(20)),
    );
    assert_eq!(coarse.verdict, Verdict::Inconclusive);
    let VerdictReason::BestCase { margin, .. } = coarse.reason else {
        panic!()
    };
    assert!((margin - 0.04).abs() < 1e-12);
}

/// Asked nothing: five far-out runs (a millisecond among microseconds) leave the mean
/// inconclusive while every quantile is 10 % slower: the median answers, the far-out
/// runs said; a mean that is decisive (no far-out runs) answers as before.
#[test]
fn unasked_the_median_answers_where_far_out_runs_sway_the_mean() {
    let base = bench("a", 1000, 1_000_000, 0.0025);
    let cand = bench("b", 1100, 1100, 0.0);
    let level = (LEVEL, Fraction::DEFAULT_SESOI);
    let mean = asked(&base, &cand, Question::Mean);
    assert_eq!(mean.verdict, Verdict::Inconclusive, "{mean:?}");
    let (c, far) = judge_unasked(&base, &cand, &Metric::WallTime, level, None);
    assert_eq!(
        (c.verdict, c.question),
        (Verdict::Slower, Question::Typical)
    );
    let swayed = far.expect("the far-out runs said");
    let far = swayed.far;
    assert_eq!((far.far_out, far.samples), (5, 4000));
    assert!(far.farthest_times_median > 900.0, "{far:?}");
    let note = question_matters(&base, &cand, &c, None, Some(&swayed)).unwrap();
    let Finding::QuestionMatters(q) = &note.finding else {
        panic!("{note:?}")
    };
    assert_eq!(q.answers[0].verdict, Verdict::Inconclusive);
    assert_eq!(q.mean_swayed, Some(far));
    // Without the far-out runs the mean decides, and nothing changes.
    let clean = bench("a", 1000, 1000, 0.0);
    let (c, far) = judge_unasked(&clean, &cand, &Metric::WallTime, level, None);
    assert_eq!(
        (c.verdict, c.question, far),
        (Verdict::Slower, Question::Mean, None)
    );
}
