//! Verdicts from stated intervals: each side's interval of one statistic at a stated
//! level — a harness's own, or, for a side with samples, its own interval of that
//! statistic at the level that makes the pair hold at the run's confidence. The ratio lies
//! in [lo_B / hi_A, hi_B / lo_A] whenever both intervals hold, which they do together
//! with probability at least 1 − (α_A + α_B), whatever their dependence (Bonferroni).
//! When two harnesses' own levels hold together below the confidence asked, no verdict
//! is given: a lower bar is the user's to set, with `--confidence`.

use super::{count, name};
use crate::called::by_interval;
use crate::replicates::replicates;
use plumb_model::quantity::Confidence;
use plumb_model::{
    Benchmark, Comparison, Metric, Question, ReportedStatistic, SummaryBasis, VerdictReason,
};
use plumb_stats::Interval;

/// An interval of a named statistic at a stated level, with that statistic's value.
#[derive(Clone, Copy)]
pub(super) struct Stated {
    of: ReportedStatistic,
    value: f64,
    interval: Interval,
    alpha: f64,
}

/// Judges `c` by the two sides' intervals; false when they have none to judge by.
pub(super) fn judge(
    c: &mut Comparison,
    base: &Benchmark,
    cand: &Benchmark,
    metric: &Metric,
) -> bool {
    let Some((b, n)) = pair(base, cand, metric, c.level.alpha()) else {
        return false;
    };
    let counts = (count(base, metric), count(cand, metric));
    by_intervals(c, b, n, counts);
    true
}

/// The harness's interval of `metric`, when it named the statistic and the level.
pub(super) fn stated(b: &Benchmark, metric: &Metric) -> Option<Stated> {
    let r = b.reported_summary(metric)?;
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
/// samples its own interval of the statistic the other summary bounds, at α = the run's
/// α less the summary's (or at the summary's level when that leaves nothing: the pair
/// then holds below the run's confidence and is refused, saying so).
fn pair(
    base: &Benchmark,
    cand: &Benchmark,
    metric: &Metric,
    asked: f64,
) -> Option<(Stated, Stated)> {
    let own = |b: &Benchmark, like: Stated| {
        let alpha = if asked > like.alpha {
            asked - like.alpha
        } else {
            like.alpha
        };
        from_samples(b, metric, like, alpha)
    };
    match (stated(base, metric), stated(cand, metric)) {
        (Some(b), Some(n)) => Some((b, n)),
        (Some(b), None) if cand.reported_summary(metric).is_none() => Some((b, own(cand, b)?)),
        (None, Some(n)) if base.reported_summary(metric).is_none() => Some((own(base, n)?, n)),
        _ => None,
    }
}

/// A side's own interval of the statistic `like` bounds, at 1 − `alpha`: the median's
/// order-statistic interval, or Student's over the replicates for the mean.
fn from_samples(b: &Benchmark, metric: &Metric, like: Stated, alpha: f64) -> Option<Stated> {
    let values = b.analysed(metric);
    let (value, interval) = match like.of {
        ReportedStatistic::Median => {
            let m = plumb_stats::median_ci(&values, 1.0 - alpha).ok()?;
            (m.median, m.interval)
        }
        ReportedStatistic::Mean => {
            let m = plumb_stats::mean_ci(&replicates(b, metric, &values), 1.0 - alpha).ok()?;
            (m.mean, m.interval)
        }
        ReportedStatistic::Unknown => return None,
    };
    Some(Stated {
        of: like.of,
        value,
        interval,
        alpha,
    })
}

/// Judges by the two intervals, or says why not: different statistics, or a joint
/// level below the one asked.
fn by_intervals(c: &mut Comparison, base: Stated, new: Stated, (base_n, cand_n): (usize, usize)) {
    let refuse = |c: &mut Comparison, problem: String| {
        c.reason = VerdictReason::CannotCompare {
            problem,
            baseline_n: base_n,
            candidate_n: cand_n,
        };
    };
    if base.of != new.of {
        let both = format!("{} and {}", name(base.of), name(new.of));
        return refuse(
            c,
            format!("the two intervals are of different statistics ({both})"),
        );
    }
    if base.of == ReportedStatistic::Median {
        c.question = Question::Typical;
    }
    let joint = 1.0 - base.alpha - new.alpha;
    let Some(level) = Confidence::new(joint).filter(|l| l.get() >= c.level.get() - 1e-12) else {
        let at = Confidence::new(joint)
            .map_or_else(|| plumb_model::format::percent(joint), |l| l.to_string());
        return refuse(
            c,
            format!(
                "the two intervals of {} hold together at {at}, below the {} asked (judge at that level with --confidence {at})",
                name(base.of),
                c.level
            ),
        );
    };
    c.level = level;
    c.from_summaries = Some(SummaryBasis::Intervals { of: base.of });
    c.ratio = new.value / base.value;
    if base.interval.lo <= 0.0 {
        c.reason = VerdictReason::BaselineNearZero {
            baseline_mean: base.value,
            launches: 0,
        };
        return;
    }
    // A time is not below zero, whatever the lower end of its interval.
    let ci = Interval {
        lo: new.interval.lo.max(0.0) / base.interval.hi,
        hi: new.interval.hi / base.interval.lo,
    };
    c.ratio_ci = Some(ci);
    (c.verdict, c.reason) = by_interval(ci, c.sesoi.get(), false);
}
