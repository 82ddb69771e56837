//! Verdicts on imported benchmarks whose harness kept only its own summary, from what
//! the summaries support and no more. Each side's mean, standard deviation and count
//! give Welch's test, TOST and Fieller's interval as samples do; each side's interval of
//! one statistic at a stated level gives the ratio's interval [lo_B / hi_A, hi_B / lo_A]
//! at the two levels together (a side with samples gives its own interval of that
//! statistic at that level); one value a side gives no verdict, and says so.
//!
//! Written here rather than taken from a crate because it is the verdict logic.

use crate::replicates::replicates;
use crate::verdict::decide;
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{
    Benchmark, Comparison, Metric, Question, ReportedStatistic, ReportedSummary, SummaryBasis,
    Verdict, VerdictReason,
};
use plumb_stats::{
    cohens_d_from_moments, ratio_from_moments, tost_from_moments, welch_from_moments, Interval,
    Moments,
};

/// `cand` against `base` when either has only a harness's summary of `metric`; `None`
/// when both have samples (they are judged as samples are).
pub fn judge_summaries(
    base: &Benchmark,
    cand: &Benchmark,
    metric: &Metric,
    confidence: Confidence,
    effect: Fraction,
) -> Option<Comparison> {
    let mut c = Comparison::unjudged(&base.name, &cand.name, confidence, effect);
    if let (Some(b), Some(n)) = (counted_only(base), counted_only(cand)) {
        by_counts(&mut c, b, n);
        return Some(c);
    }
    c.metric = metric.clone();
    if let Some(other) = [base, cand]
        .into_iter()
        .find(|b| other_metrics_only(b, metric))
    {
        let names: Vec<String> = other.reported.keys().map(|m| m.to_string()).collect();
        c.reason = VerdictReason::CannotCompare {
            problem: format!(
                "{:?} has only its harness's summary of {} (compare them with --metric)",
                other.name,
                names.join(", ")
            ),
            baseline_n: count(base, metric),
            candidate_n: count(cand, metric),
        };
        return Some(c);
    }
    if summary(base, metric).is_none() && summary(cand, metric).is_none() {
        return None;
    }
    if let (Some(b), Some(n)) = (moments(base, metric), moments(cand, metric)) {
        by_moments(&mut c, &b, &n);
    } else if let Some((b, n)) = stated_pair(base, cand, metric) {
        by_intervals(&mut c, b, n);
    } else {
        c.reason = VerdictReason::CannotCompare {
            problem: why_not(base, cand, metric),
            baseline_n: count(base, metric),
            candidate_n: count(cand, metric),
        };
    }
    Some(c)
}

/// Instructions per operation counted by a simulator, for a benchmark that has nothing
/// else (gungraun's): no samples and no summary.
fn counted_only(b: &Benchmark) -> Option<f64> {
    if !b.samples.is_empty() || !b.reported.is_empty() {
        return None;
    }
    let per_op = b.simulated.as_ref()?.per_op(&Metric::Instructions);
    (per_op.len() == 1).then(|| per_op[0])
}

/// Judges simulated instruction counts by their ratio alone: they are exact for the run
/// simulated, so there is no interval to take; beyond the SESOI more or fewer, within it
/// equivalent.
fn by_counts(c: &mut Comparison, base: f64, new: f64) {
    let sesoi = c.sesoi.get();
    c.metric = Metric::Instructions;
    c.from_summaries = Some(SummaryBasis::SimulatedCounts);
    if base <= 0.0 {
        c.reason = VerdictReason::BaselineNearZero {
            baseline_mean: base,
        };
        return;
    }
    c.ratio = new / base;
    let exact = Interval {
        lo: c.ratio,
        hi: c.ratio,
    };
    c.ratio_ci = Some(exact);
    (c.verdict, c.reason) = by_interval(exact, sesoi);
}

/// A benchmark with no samples whose harness's summary is of other metrics only (asv's
/// memory sizes and tracked values).
fn other_metrics_only(b: &Benchmark, metric: &Metric) -> bool {
    b.samples.is_empty() && !b.reported.is_empty() && !b.reported.contains_key(metric)
}

/// The harness's summary of `metric`, when `b` has it and no samples.
fn summary<'b>(b: &'b Benchmark, metric: &Metric) -> Option<&'b ReportedSummary> {
    b.reported.get(metric).filter(|_| b.samples.is_empty())
}

/// Size, mean and variance: of the summary's count, mean and standard deviation, or of
/// a side's replicates when it has samples.
fn moments(b: &Benchmark, metric: &Metric) -> Option<Moments> {
    if let Some(r) = summary(b, metric) {
        let n = usize::try_from(r.n?).ok()?;
        return Moments::from_summary(n, r.mean?, r.std_dev?).ok();
    }
    if !b.reported.is_empty() && b.samples.is_empty() {
        return None; // a summary of other metrics only
    }
    let values = b.analysed(metric);
    Moments::of(&replicates(b, metric, &values)).ok()
}

/// Judges as `verdict::judge` does, from moments instead of samples.
fn by_moments(c: &mut Comparison, base: &Moments, new: &Moments) {
    let (level, sesoi) = (c.level.get(), c.sesoi.get());
    c.from_summaries = Some(SummaryBasis::Moments);
    let Ok(ratio) = ratio_from_moments(base, new, level) else {
        return; // only a bad level fails, and a Confidence is never one
    };
    c.ratio = ratio.ratio;
    c.ratio_ci = ratio.interval.map(|i| Interval {
        lo: i.lo.max(0.0),
        hi: i.hi,
    });
    c.ratio_sd = ratio.ratio_sd;
    c.welch_p = welch_from_moments(new, base).p;
    c.tost_p = tost_from_moments(base, new, sesoi * base.mean.abs()).p;
    c.cohens_d = cohens_d_from_moments(base, new);
    let Some(ci) = ratio.interval.filter(|_| base.mean > 0.0) else {
        c.reason = VerdictReason::BaselineNearZero {
            baseline_mean: base.mean,
        };
        return;
    };
    let constant = base.variance == 0.0 && new.variance == 0.0;
    (c.verdict, c.reason) = decide(ci, c.tost_p, c.welch_p, 1.0 - level, sesoi, constant);
}

/// An interval the harness gave of a named statistic at a stated level, with that
/// statistic's value.
#[derive(Clone, Copy)]
struct Stated {
    of: ReportedStatistic,
    value: f64,
    interval: Interval,
    alpha: f64,
}

fn stated_interval(b: &Benchmark, metric: &Metric) -> Option<Stated> {
    let r = summary(b, metric)?;
    let i = r.interval?;
    let value = match i.of {
        ReportedStatistic::Mean => r.mean?,
        ReportedStatistic::Median => r.median?,
        ReportedStatistic::Unknown => return None,
    };
    Some(Stated {
        of: i.of,
        value,
        interval: Interval { lo: i.lo, hi: i.hi },
        alpha: i.level?.alpha(),
    })
}

/// Both sides' intervals of one statistic: each summary's own, and for a side with
/// samples its own interval of the statistic the other side's summary bounds, at that
/// summary's level (the median's order-statistic interval, or the mean's over its
/// replicates).
fn stated_pair(base: &Benchmark, cand: &Benchmark, metric: &Metric) -> Option<(Stated, Stated)> {
    match (stated_interval(base, metric), stated_interval(cand, metric)) {
        (Some(b), Some(n)) => Some((b, n)),
        (Some(b), None) if summary(cand, metric).is_none() => {
            Some((b, from_samples(cand, metric, b)?))
        }
        (None, Some(n)) if summary(base, metric).is_none() => {
            Some((from_samples(base, metric, n)?, n))
        }
        _ => None,
    }
}

/// A side's own interval of the statistic `like` bounds, at `like`'s level.
fn from_samples(b: &Benchmark, metric: &Metric, like: Stated) -> Option<Stated> {
    let values = b.analysed(metric);
    let level = 1.0 - like.alpha;
    let (value, interval) = match like.of {
        ReportedStatistic::Median => {
            let m = plumb_stats::median_ci(&values, level).ok()?;
            (m.median, m.interval)
        }
        ReportedStatistic::Mean => {
            let m = plumb_stats::mean_ci(&replicates(b, metric, &values), level).ok()?;
            (m.mean, m.interval)
        }
        ReportedStatistic::Unknown => return None,
    };
    Some(Stated {
        value,
        interval,
        ..like
    })
}

/// Judges by the two stated intervals: the ratio lies in [lo_B / hi_A, hi_B / lo_A]
/// whenever both intervals hold, which they do together at 1 − (α_A + α_B).
fn by_intervals(c: &mut Comparison, base: Stated, new: Stated) {
    let sesoi = c.sesoi.get();
    if base.of != new.of {
        c.reason = VerdictReason::CannotCompare {
            problem: format!(
                "the harnesses' intervals are of different statistics ({} and {})",
                name(base.of),
                name(new.of)
            ),
            baseline_n: 0,
            candidate_n: 0,
        };
        return;
    }
    let Some(joint) = Confidence::new(1.0 - base.alpha - new.alpha) else {
        c.reason = VerdictReason::CannotCompare {
            problem: "the harnesses' intervals are too wide a level to hold together".into(),
            baseline_n: 0,
            candidate_n: 0,
        };
        return;
    };
    c.level = joint;
    c.from_summaries = Some(SummaryBasis::Intervals { of: base.of });
    if base.of == ReportedStatistic::Median {
        c.question = Question::Typical;
    }
    c.ratio = new.value / base.value;
    if !(base.interval.lo > 0.0 && new.interval.lo >= 0.0) {
        c.reason = VerdictReason::BaselineNearZero {
            baseline_mean: base.value,
        };
        return;
    }
    let ci = Interval {
        lo: new.interval.lo / base.interval.hi,
        hi: new.interval.hi / base.interval.lo,
    };
    c.ratio_ci = Some(ci);
    (c.verdict, c.reason) = by_interval(ci, sesoi);
}

/// The verdict a ratio's interval gives alone (no test beside it): beyond the SESOI,
/// wholly within it, excluding 1 but straddling it, or neither.
fn by_interval(ci: Interval, sesoi: f64) -> (Verdict, VerdictReason) {
    if ci.lo > 1.0 + sesoi || ci.hi < 1.0 - sesoi {
        let v = if ci.lo > 1.0 {
            Verdict::Slower
        } else {
            Verdict::Faster
        };
        let reason = VerdictReason::BeyondSesoi {
            constant_samples: false,
        };
        (v, reason)
    } else if ci.lo >= 1.0 - sesoi && ci.hi <= 1.0 + sesoi {
        (Verdict::Equivalent, VerdictReason::WithinSesoi)
    } else if ci.lo > 1.0 || ci.hi < 1.0 {
        (Verdict::Inconclusive, VerdictReason::StraddlesSesoi)
    } else {
        (Verdict::Inconclusive, VerdictReason::NotShown)
    }
}

fn name(s: ReportedStatistic) -> &'static str {
    match s {
        ReportedStatistic::Mean => "the mean",
        ReportedStatistic::Median => "the median",
        ReportedStatistic::Unknown => "an unnamed statistic",
    }
}

/// Why no verdict: what a summary would need, and what the side that lacks it has.
fn why_not(base: &Benchmark, cand: &Benchmark, metric: &Metric) -> String {
    let lacking = [base, cand]
        .into_iter()
        .find(|b| moments(b, metric).is_none() && stated_interval(b, metric).is_none())
        .unwrap_or(base);
    let has = match summary(lacking, metric) {
        Some(r) => figures(r),
        None => "samples".to_string(),
    };
    format!(
        "judging from a summary needs each side's mean, standard deviation and count, or \
         each side's interval of one statistic at a stated level; {:?} has {has}",
        lacking.name
    )
}

/// The figures a summary has, as a list: "a value of an unnamed statistic, an interval
/// at no stated level".
fn figures(r: &ReportedSummary) -> String {
    let mut has = Vec::new();
    let fields = [
        ("a count", r.n.is_some()),
        ("a mean", r.mean.is_some()),
        ("a median", r.median.is_some()),
        ("a standard deviation", r.std_dev.is_some()),
        ("a value of an unnamed statistic", r.value.is_some()),
    ];
    has.extend(
        fields
            .iter()
            .filter(|(_, on)| *on)
            .map(|(s, _)| s.to_string()),
    );
    if let Some(i) = r.interval {
        let level = i
            .level
            .map_or("no stated level".to_string(), |l| l.to_string());
        has.push(format!("an interval of {} at {level}", name(i.of)));
    }
    if has.is_empty() {
        "no figures".into()
    } else {
        has.join(", ")
    }
}

/// The samples behind a side: its own, or the count its summary gives.
fn count(b: &Benchmark, metric: &Metric) -> usize {
    summary(b, metric)
        .and_then(|r| r.n)
        .map_or(b.samples.len(), |n| n as usize)
}

#[cfg(test)]
mod tests;
