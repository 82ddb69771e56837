//! A comparison in the result model: one benchmark against its baseline, its verdict and why.
use crate::quantity::{Confidence, Fraction};
use crate::{Diagnostic, Metric, Question, ReportedStatistic, Source};
use plumb_stats::Interval;
use serde::{Deserialize, Serialize};

/// The answer to "did it change?", judged against a smallest effect size of interest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Significantly faster, by more than the SESOI.
    Faster,
    /// Significantly slower, by more than the SESOI.
    Slower,
    /// Shown to be within ±SESOI (TOST), whether or not a smaller difference is real.
    Equivalent,
    /// Neither: the data cannot tell. More runs, or a quieter machine, may.
    Inconclusive,
}

impl Verdict {
    /// Slower or faster: a change beyond the SESOI was shown.
    pub fn is_change(self) -> bool {
        matches!(self, Verdict::Faster | Verdict::Slower)
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::Equivalent => "equivalent",
            Verdict::Inconclusive => "inconclusive",
        })
    }
}

/// Why a verdict is what it is, as data: plumb-report turns it into a sentence with the
/// comparison's own figures (ratio, interval, p-values), so tests and tools read the kind,
/// not the words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum VerdictReason {
    /// No statistic was computed yet.
    Unjudged,
    /// The statistics could not be computed (e.g. fewer than two replicates a side).
    CannotCompare {
        problem: String,
        baseline_n: usize,
        candidate_n: usize,
    },
    /// The baseline's mean is not distinguishable from zero, so a ratio to it means
    /// nothing (its interval is unbounded or the mean is not positive). `launches`: the
    /// launches (JMH's forks) the baseline's interval was taken over, 0 when it was not
    /// over launches: with two, one degree of freedom, not the mean, is what sets it.
    BaselineNearZero {
        baseline_mean: f64,
        #[serde(default, skip_serializing_if = "no_launches")]
        launches: usize,
    },
    /// The whole ratio interval lies beyond 1 ∓ SESOI: faster or slower.
    /// `constant_samples`: both sides' samples were constant, so the clock's resolution,
    /// not the code, may set the difference.
    BeyondSesoi { constant_samples: bool },
    /// TOST showed the difference within ±SESOI: equivalent (a smaller difference may
    /// still be real; the Welch p-value says).
    WithinSesoi,
    /// A real difference whose ratio interval straddles the SESOI: its size is unsettled.
    StraddlesSesoi,
    /// No significant difference and equivalence not shown: too noisy or too few runs.
    NotShown,
    /// A count (allocations, misses…) that is zero in every baseline sample and, at the
    /// run's confidence, above zero in the candidate: slower, whatever the ratio.
    FromZero { candidate_mean: f64 },
    /// A count that is zero in every sample of both: equivalent.
    BothZero,
    /// Judged by a sequential design (`plumb revs`): the interval is the repeated
    /// confidence interval of the last look, taken after `rounds` rounds of at most
    /// `max_rounds`; beyond the SESOI, within it, or (inconclusive) neither when the
    /// rounds ended. The fixed-sample tests are not given: the rounds were looked at
    /// repeatedly, so their p-values would not hold.
    Sequential { rounds: u64, max_rounds: u64 },
    /// Judged on a quantile (the median for "typical", a high percentile for "worst"):
    /// each side's order-statistic interval at `each_level` (1 − α/2, so the pair holds
    /// at the run's level), the ratio's interval [lo_B / hi_A, hi_B / lo_A]; beyond,
    /// within, straddling the SESOI, or (`excludes_one` false) not shown.
    Quantile {
        statistic: String,
        each_level: f64,
        excludes_one: bool,
    },
    /// The quantile asked cannot be answered from these samples: its order-statistic
    /// interval needs `needed` samples a side at the run's confidence.
    TooFewForQuantile {
        statistic: String,
        needed: usize,
        baseline_n: usize,
        candidate_n: usize,
    },
    /// Judged on the minimum (best case): no honest interval exists for it, so a verdict
    /// is given only when the ratio of minima lies beyond the SESOI plus the clock's
    /// resolution relative to the baseline's minimum (`margin`); otherwise inconclusive.
    BestCase {
        margin: f64,
        baseline_n: usize,
        candidate_n: usize,
    },
}

/// One benchmark against its baseline. Statistics that could not be computed (too few
/// samples) are NaN in memory and `null` in JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub baseline: String,
    pub candidate: String,
    /// The question the verdict answers: which statistic it compares (the mean unless
    /// asked otherwise).
    #[serde(default, skip_serializing_if = "Question::is_mean")]
    pub question: Question,
    /// What was compared, per operation (wall time unless asked otherwise).
    pub metric: Metric,
    pub verdict: Verdict,
    /// Why the verdict is what it is.
    pub reason: VerdictReason,
    /// The compared statistic of the candidate over the baseline's: mean(candidate) /
    /// mean(baseline) unless `question` asks for another.
    #[serde(with = "crate::nan_as_null")]
    pub ratio: f64,
    /// Fieller interval of the ratio at `level`; absent when unbounded.
    pub ratio_ci: Option<Interval>,
    #[serde(with = "crate::nan_as_null")]
    pub ratio_sd: f64,
    pub level: Confidence,
    /// Smallest effect size of interest, as a fraction (0.02 = 2 %).
    pub sesoi: Fraction,
    #[serde(with = "crate::nan_as_null")]
    pub welch_p: f64,
    #[serde(with = "crate::nan_as_null")]
    pub mann_whitney_p: f64,
    /// The smallest p Mann–Whitney can give at these sample sizes; absent in documents
    /// written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mann_whitney_min_p: Option<f64>,
    /// TOST p-value for equivalence within ±SESOI.
    #[serde(with = "crate::nan_as_null")]
    pub tost_p: f64,
    /// Cohen's d; inflates when noise is tiny, so read it beside the ratio, not alone.
    #[serde(with = "crate::nan_as_null")]
    pub cohens_d: f64,
    /// Hodges–Lehmann shift candidate − baseline, per operation in the metric's unit.
    #[serde(with = "crate::nan_as_null")]
    pub hodges_lehmann: f64,
    /// What moved besides the compared metric, where both sides counted it: IPC,
    /// instructions, branch and cache misses per operation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<CounterChange>,
    /// What the counters say about the verdict: the time moved and the work did not
    /// (`time-not-work`), or the reverse (`work-not-time`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Diagnostic>,
    /// Judged from a harness's own summaries (an import that kept no samples) rather
    /// than from samples, and from which figures of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_summaries: Option<SummaryBasis>,
}

/// What a verdict from summaries rests on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum SummaryBasis {
    /// Each side's mean, standard deviation and count (a side with samples gives its
    /// replicates'): Welch's test, TOST and Fieller's interval as for samples, the
    /// harness's samples taken as independent. Mann–Whitney and Hodges–Lehmann need
    /// samples and are absent.
    Moments,
    /// Each side's reported interval of `of` at its harness's level: the ratio's interval
    /// is [lo_new / hi_base, hi_new / lo_base], holding at the comparison's `level`
    /// (1 − the two sides' α together).
    Intervals { of: ReportedStatistic },
    /// Instructions per operation a simulator counted (gungraun's callgrind), exact for
    /// the run simulated: the ratio alone, beyond or within the SESOI.
    SimulatedCounts,
}

/// One counter per operation (or IPC) of the candidate against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CounterChange {
    /// The metric's name (`instructions`, `branch-misses`, `ll-misses`, …) or `ipc`.
    pub counter: String,
    pub source: Source,
    #[serde(with = "crate::nan_as_null")]
    pub baseline: f64,
    #[serde(with = "crate::nan_as_null")]
    pub candidate: f64,
    /// candidate / baseline.
    #[serde(with = "crate::nan_as_null")]
    pub ratio: f64,
    /// Over the replicates at the comparison's confidence; absent for simulated counts
    /// (deterministic: one run each is exact) and for IPC (a ratio of two means).
    pub ratio_ci: Option<Interval>,
    /// As for time: `slower` is more of the counter (fewer for IPC: `faster` is higher
    /// IPC), `equivalent` within the SESOI. Simulated counts and IPC are judged by their
    /// ratio alone.
    pub verdict: Verdict,
}

impl Comparison {
    /// A comparison before any statistic is computed: inconclusive, every figure NaN.
    pub fn unjudged(
        baseline: impl Into<String>,
        candidate: impl Into<String>,
        level: Confidence,
        sesoi: Fraction,
    ) -> Self {
        Comparison {
            baseline: baseline.into(),
            candidate: candidate.into(),
            question: Question::Mean,
            metric: Metric::WallTime,
            verdict: Verdict::Inconclusive,
            reason: VerdictReason::Unjudged,
            ratio: f64::NAN,
            ratio_ci: None,
            ratio_sd: f64::NAN,
            level,
            sesoi,
            welch_p: f64::NAN,
            mann_whitney_p: f64::NAN,
            mann_whitney_min_p: None,
            tost_p: f64::NAN,
            cohens_d: f64::NAN,
            hodges_lehmann: f64::NAN,
            counters: Vec::new(),
            notes: Vec::new(),
            from_summaries: None,
        }
    }
}

/// Whether a baseline's interval was taken over no launches (nothing to write).
fn no_launches(n: &usize) -> bool {
    *n == 0
}
