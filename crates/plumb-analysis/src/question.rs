//! Verdicts by the question asked ("Best case, typical, bounded worst case. Pick one."):
//! the mean by `verdict::judge` (Fieller's ratio interval); the median or a high
//! percentile by each side's distribution-free order-statistic interval; the minimum by
//! its ratio alone, only beyond the SESOI plus the clock's resolution. And the note when
//! the answer depends on the question — the median faster, p99 slower.
//!
//! Written here rather than taken from a crate because it is the verdict logic.

use crate::called::verdict_of;
use crate::verdict::judge;
use plumb_model::finding::{FarOut, QuestionAnswer, QuestionMatters};
use plumb_model::quantity::{Confidence, Duration, Fraction};
use plumb_model::{
    Benchmark, Comparison, Diagnostic, Metric, Question, Severity, Verdict, VerdictReason,
};
use plumb_stats::{
    decide, quantile_ci, samples_for_quantile, tukey_outliers, Evidence, Interval, Look,
};

/// `cand` against `base` on `metric`, answering `question`. The mean's tests (Welch,
/// Mann–Whitney, TOST) stay in the comparison as context whatever the question.
pub fn judge_question(
    base: &Benchmark,
    cand: &Benchmark,
    metric: &Metric,
    confidence: Confidence,
    effect: Fraction,
    question: Question,
    resolution: Option<Duration>,
) -> Comparison {
    let mean = judge(base, cand, metric, confidence, effect);
    answer(&mean, base, cand, question, resolution)
}

/// The verdict when no question was asked: the mean's — unless far-out samples leave the
/// mean inconclusive while the median is decisive and no other decisive answer (p99)
/// says otherwise: then the median's, the far-out samples returned to be said (one stall
/// among thousands of rounds must not hide a change every quantile shows).
pub fn judge_unasked(
    base: &Benchmark,
    cand: &Benchmark,
    metric: &Metric,
    (confidence, effect): (Confidence, Fraction),
    resolution: Option<Duration>,
) -> (Comparison, Option<Swayed>) {
    let mean = judge(base, cand, metric, confidence, effect);
    // Inconclusive for the spread, not for want of samples or a refused comparison (a
    // baseline mean whose interval reaches zero is a spread that wide).
    let noisy = matches!(
        mean.reason,
        VerdictReason::NotShown
            | VerdictReason::StraddlesSesoi
            | VerdictReason::BaselineNearZero { .. }
    );
    if mean.verdict != Verdict::Inconclusive || !noisy || mean.from_summaries.is_some() {
        return (mean, None);
    }
    let Some(far) = far_out(base, cand, metric) else {
        return (mean, None);
    };
    let typical = answer(&mean, base, cand, Question::Typical, resolution);
    let worst = answer(&mean, base, cand, Question::Worst(99.0), resolution);
    let decisive = Verdict::is_change;
    let against = decisive(worst.verdict) && worst.verdict != typical.verdict;
    match decisive(typical.verdict) && !against {
        true => (typical, Some(Swayed { far, mean })),
        false => (mean, None),
    }
}

/// Why the median answered a comparison no question was asked of: the far-out samples,
/// and the mean's own judgement (kept, so the note reads it rather than judging again).
#[derive(Debug, Clone, PartialEq)]
pub struct Swayed {
    pub far: FarOut,
    pub mean: Comparison,
}

/// The far-out samples of both sides (beyond Tukey's 3·IQR fences), when there are any.
fn far_out(base: &Benchmark, cand: &Benchmark, metric: &Metric) -> Option<FarOut> {
    let (mut far, mut samples, mut farthest) = (0, 0, 0.0f64);
    for b in [base, cand] {
        let values = b.analysed(metric);
        let fences = tukey_outliers(&values).ok()?;
        let median = plumb_stats::Summary::of(&values).ok()?.median;
        far += fences.far_low + fences.far_high;
        samples += values.len();
        if median > 0.0 {
            let most = values
                .iter()
                .map(|v| (v - median).abs())
                .fold(0.0, f64::max);
            farthest = farthest.max((median + most) / median);
        }
    }
    (far > 0).then_some(FarOut {
        far_out: far,
        samples,
        farthest_times_median: farthest,
    })
}

/// A verdict from summaries answers the statistic they hold (the row says which): the
/// mean, asked by default, takes it; another question asked of a summary that does not
/// hold its statistic is refused, saying what the summary holds. Exact counts answer any.
fn of_a_summary(mut c: Comparison, question: Question, counts: (usize, usize)) -> Comparison {
    let exact = c.from_summaries == Some(plumb_model::SummaryBasis::SimulatedCounts);
    if exact || question == Question::Mean || question == c.question {
        return c;
    }
    let held = c.question.statistic();
    c.verdict = Verdict::Inconclusive;
    c.ratio_ci = None;
    c.reason = VerdictReason::CannotCompare {
        problem: format!(
            "the harnesses' summaries answer the {held}, not the {} asked",
            question.statistic()
        ),
        baseline_n: counts.0,
        candidate_n: counts.1,
    };
    c
}

/// The comparison of the means (`verdict::judge`'s) turned into the answer to `question`,
/// so that several questions of one pair share one judgement of the means.
fn answer(
    mean: &Comparison,
    base: &Benchmark,
    cand: &Benchmark,
    question: Question,
    resolution: Option<Duration>,
) -> Comparison {
    let mut c = mean.clone();
    if c.from_summaries.is_some() {
        let counts = (
            crate::summary_verdict::count(base, &c.metric),
            crate::summary_verdict::count(cand, &c.metric),
        );
        return of_a_summary(c, question, counts);
    }
    c.question = question;
    if matches!(
        c.reason,
        VerdictReason::FromZero { .. } | VerdictReason::BothZero
    ) {
        return c; // a count from or at zero is judged the same whatever the question
    }
    let (x, y) = (base.analysed(&c.metric), cand.analysed(&c.metric));
    match question {
        Question::Mean => {}
        Question::Typical => by_quantile(&mut c, &x, &y, 0.5),
        Question::Worst(p) => by_quantile(&mut c, &x, &y, p / 100.0),
        Question::Best => {
            let resolution_ns = resolution.map_or(0.0, |r| r.as_nanos_f64());
            by_minimum(&mut c, &x, &y, resolution_ns)
        }
    }
    c
}

/// Each side's p-quantile bounded at 1 − α/2 (so both hold together at 1 − α), the
/// ratio's interval from their ends.
fn by_quantile(c: &mut Comparison, x: &[f64], y: &[f64], p: f64) {
    let statistic = c.question.statistic();
    let each_level = 1.0 - c.level.alpha() / 2.0;
    let (b, n) = match (quantile_ci(x, p, each_level), quantile_ci(y, p, each_level)) {
        (Ok(b), Ok(n)) => (b, n),
        _ => {
            c.verdict = Verdict::Inconclusive;
            c.reason = VerdictReason::TooFewForQuantile {
                statistic,
                needed: samples_for_quantile(p, each_level),
                baseline_n: x.len(),
                candidate_n: y.len(),
            };
            c.ratio = f64::NAN;
            c.ratio_ci = None;
            return;
        }
    };
    c.ratio = n.estimate / b.estimate;
    c.ratio_ci = (b.interval.lo > 0.0).then(|| Interval {
        lo: n.interval.lo / b.interval.hi,
        hi: n.interval.hi / b.interval.lo,
    });
    let Some(ci) = c.ratio_ci.filter(|_| b.estimate > 0.0) else {
        c.verdict = Verdict::Inconclusive;
        c.reason = VerdictReason::BaselineNearZero {
            baseline_mean: b.estimate,
            launches: 0,
        };
        return;
    };
    let call = decide(ci, c.sesoi.get(), Evidence::Interval, Look::Fixed);
    c.verdict = verdict_of(call);
    c.reason = VerdictReason::Quantile {
        statistic,
        each_level,
        excludes_one: !ci.contains(1.0),
    };
}

/// The ratio of minima, called only beyond the SESOI plus the clock's resolution as a
/// share of the baseline's minimum; never equivalent (there is no interval to show it).
fn by_minimum(c: &mut Comparison, x: &[f64], y: &[f64], resolution_ns: f64) {
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let (b, n) = (min(x), min(y));
    c.ratio_ci = None;
    if x.is_empty() || y.is_empty() || b <= 0.0 {
        c.verdict = Verdict::Inconclusive;
        c.ratio = f64::NAN;
        c.reason = VerdictReason::BaselineNearZero {
            baseline_mean: b,
            launches: 0,
        };
        return;
    }
    c.ratio = n / b;
    let margin = c.sesoi.get() + resolution_ns / b;
    let point = Interval {
        lo: c.ratio,
        hi: c.ratio,
    };
    c.verdict = verdict_of(decide(point, margin, Evidence::Point, Look::Fixed));
    c.reason = VerdictReason::BestCase {
        margin,
        baseline_n: x.len(),
        candidate_n: y.len(),
    };
}

/// The note when the two benchmarks get different decisive answers by another question
/// (among the mean, the median and p99, where the samples can answer it): a verdict that
/// is faster or slower against one that is another of faster, slower or equivalent.
/// Also said whenever the answer given is inconclusive and another is decisive (the mean
/// inconclusive, the median slower), and when no question was asked and the verdict
/// answers the median because of far-out samples (`swayed`).
pub fn question_matters(
    base: &Benchmark,
    cand: &Benchmark,
    asked: &Comparison,
    resolution: Option<Duration>,
    swayed: Option<&Swayed>,
) -> Option<Diagnostic> {
    // The means judged once (the asked comparison is that judgement when it asked the
    // mean, or `swayed` kept it); each other question is read off it.
    let mean = match (asked.question, swayed) {
        (Question::Mean, _) => asked.clone(),
        (_, Some(s)) => s.mean.clone(),
        _ => judge(base, cand, &asked.metric, asked.level, asked.sesoi),
    };
    let undecided = asked.verdict == Verdict::Inconclusive;
    let mut answers: Vec<QuestionAnswer> = Vec::new();
    for q in [Question::Mean, Question::Typical, Question::Worst(99.0)] {
        let c = if q == asked.question {
            asked.clone()
        } else {
            answer(&mean, base, cand, q, resolution)
        };
        // The answer given is listed even when inconclusive: against a decisive one, it
        // is what the user would otherwise not learn.
        let listed = c.verdict != Verdict::Inconclusive
            || (q == asked.question && undecided)
            || (q == Question::Mean && swayed.is_some());
        if listed {
            answers.push(QuestionAnswer {
                statistic: q.statistic(),
                verdict: c.verdict,
                ratio: c.ratio,
            });
        }
    }
    let decisive = Verdict::is_change;
    let differ = answers.iter().any(|a| {
        answers
            .iter()
            .any(|b| a.verdict != b.verdict && (decisive(a.verdict) || decisive(b.verdict)))
    });
    (differ || swayed.is_some()).then(|| {
        let finding = QuestionMatters {
            asked: asked.question.describe(),
            answers,
            mean_swayed: swayed.map(|s| s.far),
        };
        Diagnostic::new(Severity::Warning, finding)
    })
}

#[cfg(test)]
mod tests;
