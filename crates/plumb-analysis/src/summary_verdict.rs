//! Verdicts on imported benchmarks whose harness kept only its own summary, from what
//! the summaries support and no more: each side's mean, standard deviation and count give
//! Welch's test, TOST and Fieller's interval as samples do; each side's interval of one
//! statistic at a stated level bounds the ratio (`intervals.rs`); a simulator's exact
//! counts are judged by their ratio (`counts.rs`); one value a side gives no verdict, and
//! says why.
//!
//! Written here rather than taken from a crate because it is the verdict logic.

mod counts;
mod intervals;

use crate::called::by_tests;
use crate::replicates::replicates;
use crate::sides::{failed_side, sides};
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{
    Benchmark, Comparison, Metric, ReportedStatistic, ReportedSummary, SummaryBasis, VerdictReason,
};
use plumb_stats::{
    cohens_d_from_moments, ratio_from_moments, tost_from_moments, welch_from_moments, Interval,
    Moments,
};

/// `cand` against `base` when either has only a harness's summary (or a simulator's
/// counts alone); `None` when both have samples (they are judged as samples are).
pub fn judge_summaries(
    base: &Benchmark,
    cand: &Benchmark,
    metric: &Metric,
    confidence: Confidence,
    effect: Fraction,
) -> Option<Comparison> {
    let mut c = Comparison::unjudged(&base.name, &cand.name, confidence, effect);
    if counts::judge(&mut c, base, cand, metric) {
        return Some(c);
    }
    if !base.summary_only() && !cand.summary_only() {
        return None;
    }
    c.metric = metric.clone();
    if let Some(problem) = refusal(base, cand, metric) {
        c.reason = cannot(problem, base, cand, metric);
    } else if let (Some(b), Some(n)) = (moments(base, metric), moments(cand, metric)) {
        by_moments(&mut c, &b, &n, base.summary_only() && cand.summary_only());
    } else if !intervals::judge(&mut c, base, cand, metric) {
        c.reason = cannot(why_not(base, cand, metric), base, cand, metric);
    }
    Some(c)
}

/// Why the pair cannot be judged before any figure is looked at: a side failed, or has
/// a summary of other metrics only (asv's memory sizes and tracked values).
fn refusal(base: &Benchmark, cand: &Benchmark, metric: &Metric) -> Option<String> {
    let failed = sides(base, cand)
        .filter(|(_, b)| b.samples.is_empty())
        .find_map(|(side, b)| failed_side(side, b));
    failed.or_else(|| {
        let (_, other) = sides(base, cand)
            .find(|(_, b)| b.summary_only() && !b.reported.contains_key(metric))?;
        let names: Vec<String> = other.reported.keys().map(|m| m.to_string()).collect();
        Some(format!(
            "{:?} has only its harness's summary of {} (compare that with --metric)",
            other.name,
            names.join(", ")
        ))
    })
}

fn cannot(problem: String, base: &Benchmark, cand: &Benchmark, metric: &Metric) -> VerdictReason {
    VerdictReason::CannotCompare {
        problem,
        baseline_n: count(base, metric),
        candidate_n: count(cand, metric),
    }
}

/// Size, mean and variance: of the summary's count, mean and standard deviation, or of
/// a side's replicates when it has samples.
fn moments(b: &Benchmark, metric: &Metric) -> Option<Moments> {
    if b.summary_only() {
        let r = b.reported_summary(metric)?;
        let n = usize::try_from(r.n?).ok()?;
        return Moments::from_summary(n, r.mean?, r.std_dev?).ok();
    }
    let values = b.analysed(metric);
    Moments::of(&replicates(b, metric, &values)).ok()
}

/// Judges as `verdict::judge` does, from moments instead of samples. Cohen's d and the
/// ratio's spread describe samples: given only when both sides are summaries (a side's
/// replicates are not its samples).
fn by_moments(c: &mut Comparison, base: &Moments, new: &Moments, both_summaries: bool) {
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
    c.welch_p = welch_from_moments(new, base).p;
    c.tost_p = tost_from_moments(base, new, sesoi * base.mean.abs()).p;
    if both_summaries {
        c.ratio_sd = ratio.ratio_sd;
        c.cohens_d = cohens_d_from_moments(base, new);
    }
    let Some(ci) = ratio.interval.filter(|_| base.mean > 0.0) else {
        c.reason = VerdictReason::BaselineNearZero {
            baseline_mean: base.mean,
            launches: 0,
        };
        return;
    };
    let constant = base.variance == 0.0 && new.variance == 0.0;
    (c.verdict, c.reason) = by_tests(ci, (c.tost_p, c.welch_p, 1.0 - level), sesoi, constant);
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
        .find(|b| moments(b, metric).is_none() && intervals::stated(b, metric).is_none())
        .unwrap_or(base);
    let has = match lacking.reported_summary(metric) {
        Some(r) => figures(r),
        None => match lacking.samples.len() {
            0 => "no samples".to_string(),
            1 => "1 sample".to_string(),
            n => format!("{n} samples"),
        },
    };
    format!(
        "judging from a summary needs each side's mean, standard deviation and count, or \
         each side's interval of one statistic at a stated level; {:?} has {has}",
        lacking.name
    )
}

/// The figures a summary has, as a list: "a value of an unnamed statistic, an interval
/// of an unnamed statistic at no stated level".
fn figures(r: &ReportedSummary) -> String {
    let fields = [
        ("a count", r.n.is_some()),
        ("a mean", r.mean.is_some()),
        ("a median", r.median.is_some()),
        ("a standard deviation", r.std_dev.is_some()),
        ("a value of an unnamed statistic", r.value.is_some()),
    ];
    let mut has: Vec<String> = (fields.iter())
        .filter(|(_, on)| *on)
        .map(|(s, _)| s.to_string())
        .collect();
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
pub(crate) fn count(b: &Benchmark, metric: &Metric) -> usize {
    b.reported_summary(metric)
        .and_then(|r| r.n)
        .map_or(b.samples.len(), |n| n as usize)
}

#[cfg(test)]
mod tests;
