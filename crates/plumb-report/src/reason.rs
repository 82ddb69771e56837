//! Verdict reasons as sentences, from the data the analysis recorded: the reason's kind,
//! and the comparison's own ratio, interval and p-values.

use plumb_model::format::factor;

/// Fewer launches than this give the interval of their mean so few degrees of freedom that
/// t alone (636.6 for one at 99.9 %, 31.6 for two, 12.9 for three) can stretch it across
/// zero: said as the reason, with how many settle it.
const FEW_LAUNCHES: usize = 5;
use plumb_model::{
    Comparison, PercentileComparison, ReportedStatistic, SummaryBasis, Verdict, VerdictReason,
};

/// `=1.2e-5`, or `<1e-15` below what the distribution functions resolve.
fn fmt_p(p: f64) -> String {
    if p < 1e-15 {
        "<1e-15".to_string()
    } else {
        format!("={p:.2e}")
    }
}

/// What the two tests say, and what it means when they disagree.
fn tests_text(c: &Comparison) -> String {
    let alpha = c.level.alpha();
    let ranks_cannot = c.mann_whitney_min_p.filter(|&m| m >= alpha);
    match (c.welch_p < alpha, c.mann_whitney_p < alpha) {
        (true, false) if ranks_cannot.is_some() => format!(
            "Welch p{}, Mann-Whitney p{}: with these few samples the ranks cannot give less than p={:.2e}, so they cannot confirm at {} confidence",
            fmt_p(c.welch_p),
            fmt_p(c.mann_whitney_p),
            ranks_cannot.expect("checked"),
            c.level
        ),
        (true, false) => format!(
            "Welch p{} but Mann-Whitney p{}: the means differ, the ranks do not (a change in the tail, e.g. some slow runs)",
            fmt_p(c.welch_p),
            fmt_p(c.mann_whitney_p)
        ),
        (false, true) => format!(
            "Mann-Whitney p{} but Welch p{}: the ranks differ, the means do not (a change of shape)",
            fmt_p(c.mann_whitney_p),
            fmt_p(c.welch_p)
        ),
        _ => format!(
            "Welch p{}, Mann-Whitney p{}",
            fmt_p(c.welch_p),
            fmt_p(c.mann_whitney_p)
        ),
    }
}

/// Why the verdict is what it is, in one sentence.
pub fn reason_text(c: &Comparison) -> String {
    let sesoi = format!("±{}", c.sesoi);
    let change = format!("{:+.1}%", 100.0 * (c.ratio - 1.0));
    let ci = c
        .ratio_ci
        .map(|ci| format!("ratio CI [{}, {}]", factor(ci.lo), factor(ci.hi)))
        .unwrap_or_else(|| "ratio CI unbounded".into());
    match c.from_summaries {
        Some(basis) => summary_reason(c, basis, &change, &ci, &sesoi)
            .unwrap_or_else(|| sample_reason(c, &change, &ci, &sesoi)),
        None => sample_reason(c, &change, &ci, &sesoi),
    }
}

/// Why a verdict judged from harnesses' summaries is what it is, and what it rests on;
/// `None` for the reasons said as for samples (no ratio to speak of).
fn summary_reason(
    c: &Comparison,
    basis: SummaryBasis,
    change: &str,
    ci: &str,
    sesoi: &str,
) -> Option<String> {
    let from = match basis {
        SummaryBasis::Moments => format!(
            "judged from each side's mean, standard deviation and count (Welch p{}; the samples behind a summary taken as independent)",
            fmt_p(c.welch_p)
        ),
        SummaryBasis::SimulatedCounts => String::new(),
        SummaryBasis::Intervals { of } => format!(
            "judged from each side's interval of the {} (the harness's own where it kept no samples), which hold together at {} confidence",
            statistic_name(of),
            c.level
        ),
    };
    if basis == SummaryBasis::SimulatedCounts {
        return counts_reason(c, change, sesoi);
    }
    let said = match &c.reason {
        VerdictReason::BeyondSesoi { .. } => {
            format!("{change}: the whole {ci} lies beyond the SESOI of {sesoi}")
        }
        VerdictReason::WithinSesoi if basis == SummaryBasis::Moments => format!(
            "within {sesoi} (TOST p{} < α={:.0e})",
            fmt_p(c.tost_p),
            c.level.alpha()
        ),
        VerdictReason::WithinSesoi => format!("the whole {ci} lies within {sesoi}"),
        VerdictReason::StraddlesSesoi => {
            format!(
                "a {change} difference is significant but its {ci} straddles the SESOI of {sesoi}"
            )
        }
        VerdictReason::NotShown => format!(
            "the {ci} holds 1 and reaches beyond {sesoi}: too noisy or too few samples to say"
        ),
        _ => return None,
    };
    Some(format!("{said}; {from}"))
}

/// A verdict on simulated instruction counts: the ratio alone decides.
/// `None` for the reasons said as for samples (a baseline of none).
fn counts_reason(c: &Comparison, change: &str, sesoi: &str) -> Option<String> {
    let how = format!(
        "{} a call as a simulator counted them, exact for the run it simulated: the ratio alone decides (it says nothing of time)",
        c.metric
    );
    match c.reason {
        VerdictReason::BeyondSesoi { .. } => {
            Some(format!("{change} beyond the SESOI of {sesoi}; {how}"))
        }
        VerdictReason::WithinSesoi => Some(format!("{change}, within {sesoi}; {how}")),
        _ => None,
    }
}

fn statistic_name(s: ReportedStatistic) -> &'static str {
    match s {
        ReportedStatistic::Mean => "mean",
        ReportedStatistic::Median => "median",
        ReportedStatistic::Unknown => "unnamed statistic",
    }
}

/// Why a baseline's mean near zero leaves the ratio unsettled: with few launches, their
/// few degrees of freedom (and what settles them).
fn near_zero(baseline_mean: f64, launches: usize, c: &Comparison) -> String {
    if !(2..FEW_LAUNCHES).contains(&launches) || baseline_mean <= 0.0 {
        return format!(
            "the baseline's mean ({baseline_mean:.3e}) is not distinguishable from zero, so a ratio to it means nothing"
        );
    }
    let df = match launches - 1 {
        1 => "one degree of freedom".to_string(),
        df => format!("{df} degrees of freedom"),
    };
    format!(
        "the baseline's mean ({baseline_mean:.3e}) rests on {launches} launches (JMH's forks): {df} between them, so at {} confidence its interval reaches zero and a ratio to it means nothing; {FEW_LAUNCHES} or more launches settle it (JMH's -f {FEW_LAUNCHES}, plumb-bench's --launches {FEW_LAUNCHES})",
        c.level
    )
}

/// Why a verdict judged from samples is what it is.
fn sample_reason(c: &Comparison, change: &str, ci: &str, sesoi: &str) -> String {
    match &c.reason {
        VerdictReason::Unjudged => "not judged".into(),
        VerdictReason::CannotCompare {
            problem,
            baseline_n,
            candidate_n,
        } => format!("cannot compare: {problem} (baseline n={baseline_n}, candidate n={candidate_n})"),
        VerdictReason::BaselineNearZero {
            baseline_mean,
            launches,
        } => near_zero(*baseline_mean, *launches, c),
        VerdictReason::FromZero { candidate_mean } => format!(
            "none in the baseline, {candidate_mean:.3} per operation in the candidate (distinguishable from zero at {} confidence)",
            c.level
        ),
        VerdictReason::BothZero => "none in either: nothing changed".to_string(),
        VerdictReason::BeyondSesoi { constant_samples } => format!(
            "{change}: the whole {ci} lies beyond the SESOI of {sesoi}; {}{}",
            tests_text(c),
            if *constant_samples {
                "; both samples are constant: the clock's resolution, not the code, may set this difference"
            } else {
                ""
            }
        ),
        VerdictReason::WithinSesoi => {
            let real = if c.welch_p < c.level.alpha() {
                format!(
                    "; a {change} difference is significant ({}) but smaller than what matters",
                    tests_text(c)
                )
            } else {
                String::new()
            };
            format!(
                "within {sesoi} (TOST p{} < α={:.0e}){real}",
                fmt_p(c.tost_p),
                c.level.alpha()
            )
        }
        VerdictReason::StraddlesSesoi => format!(
            "a {change} difference is significant ({}) but its {ci} straddles the SESOI of {sesoi}: more runs will settle its size",
            tests_text(c)
        ),
        VerdictReason::Sequential { rounds, max_rounds } => {
            let ci = ci.replace("ratio CI", "repeated ratio CI");
            let when = format!("at round {rounds} of at most {max_rounds}");
            match c.verdict {
                Verdict::Faster | Verdict::Slower => {
                    format!("{change}: the whole {ci} lies beyond the SESOI of {sesoi} {when}")
                }
                Verdict::Equivalent => format!("the whole {ci} lies within {sesoi} {when}"),
                Verdict::Inconclusive if *rounds == 0 => {
                    "stopped before the first look: nothing can be said".to_string()
                }
                Verdict::Inconclusive => format!(
                    "not settled {when}: the {ci} is neither beyond nor within {sesoi}"
                ),
            }
        }
        VerdictReason::Quantile { .. }
        | VerdictReason::TooFewForQuantile { .. }
        | VerdictReason::BestCase { .. } => question_reason(c, change, ci, sesoi),
        VerdictReason::NotShown => format!(
            "no difference in means significant at {} confidence (α={:.0e}; {}) and not shown within {sesoi} (TOST p{}): too noisy or too few runs to say",
            c.level,
            c.level.alpha(),
            tests_text(c),
            fmt_p(c.tost_p)
        ),
    }
}

/// Why a verdict on a quantile or the minimum is what it is.
fn question_reason(c: &Comparison, change: &str, ci: &str, sesoi: &str) -> String {
    match &c.reason {
        VerdictReason::Quantile {
            statistic,
            each_level,
            excludes_one,
        } => {
            let each = plumb_model::quantity::Confidence::new(*each_level)
                .map_or_else(|| plumb_model::format::percent(*each_level), |l| l.to_string());
            let how = format!(
                "each side's {statistic} bounded by order statistics at ≥{each} (distribution-free)"
            );
            match c.verdict {
                Verdict::Faster | Verdict::Slower => format!(
                    "{change} in the {statistic}: the whole {ci} lies beyond the SESOI of {sesoi}; {how}"
                ),
                Verdict::Equivalent => format!(
                    "the {statistic}'s whole {ci} lies within {sesoi}; {how}"
                ),
                Verdict::Inconclusive if *excludes_one => format!(
                    "a {change} difference in the {statistic} is significant but its {ci} straddles the SESOI of {sesoi}: more runs will settle its size; {how}"
                ),
                Verdict::Inconclusive => format!(
                    "the {statistic}'s {ci} holds 1 and reaches beyond {sesoi}: too noisy or too few runs to say; {how}"
                ),
            }
        }
        VerdictReason::TooFewForQuantile {
            statistic,
            needed,
            baseline_n,
            candidate_n,
        } => format!(
            "this data cannot answer the question: bounding the {statistic} at {} confidence takes at least {needed} samples a side (baseline n={baseline_n}, candidate n={candidate_n}); run longer, or ask a lower percentile",
            c.level
        ),
        VerdictReason::BestCase {
            margin,
            baseline_n,
            candidate_n,
        } => {
            let beyond = format!(
                "{change} in the minimum of {baseline_n} and {candidate_n} runs; a minimum has no honest interval, so only a change beyond the SESOI plus the clock's resolution ({}) is called",
                plumb_model::format::percent(*margin)
            );
            match c.verdict {
                Verdict::Faster | Verdict::Slower => beyond,
                _ => format!("{beyond}: this one is not, and equivalence cannot be shown without an interval"),
            }
        }
        _ => unreachable!("only the questions' reasons come here"),
    }
}

/// Why a percentile's verdict is what it is.
pub fn percentile_reason_text(p: &PercentileComparison) -> String {
    let change = format!("{:+.1}%", 100.0 * (p.ratio - 1.0));
    let Some(ci) = p.ratio_ci else {
        return format!(
            "fewer than 10 requests beyond {} in a run: run longer",
            p.percentile
        );
    };
    if p.base_runs <= 1 && p.new_runs <= 1 {
        return format!(
            "{change}; one run per side cannot tell a change from run-to-run variation (within the runs, as if requests were independent: [{}, {}]); repeat them (plumb load --repeat N)",
            factor(ci.lo),
            factor(ci.hi)
        );
    }
    let where_ = match p.verdict {
        Verdict::Slower => "lies above 1 + SESOI",
        Verdict::Faster => "lies below 1 − SESOI",
        Verdict::Equivalent => "lies within ±SESOI",
        Verdict::Inconclusive => "straddles the SESOI",
    };
    format!(
        "{change}; the ratio's interval [{}, {}] over {} and {} runs {where_}",
        factor(ci.lo),
        factor(ci.hi),
        p.base_runs,
        p.new_runs
    )
}

/// What moved besides the compared metric, on one line: "ipc ×0.667 lower · instructions
/// ×1.000 [0.998, 1.002] same · d1-misses ×30.1 more (simulated)"; None without counters.
pub fn counter_changes_text(c: &plumb_model::Comparison) -> Option<String> {
    if c.counters.is_empty() {
        return None;
    }
    let parts: Vec<String> = c
        .counters
        .iter()
        .map(|k| {
            let ipc = k.counter == "ipc";
            let word = match k.verdict {
                plumb_model::Verdict::Equivalent => "same",
                plumb_model::Verdict::Inconclusive => "unclear",
                plumb_model::Verdict::Faster if ipc => "higher",
                plumb_model::Verdict::Slower if ipc => "lower",
                plumb_model::Verdict::Faster => "fewer",
                plumb_model::Verdict::Slower => "more",
            };
            let simulated = if k.source == plumb_model::Source::Simulated {
                " (simulated)"
            } else {
                ""
            };
            let ratio = match (k.ratio.is_finite(), k.candidate == 0.0) {
                (true, _) => format!("×{}", factor(k.ratio)),
                // None on either side: no ratio, interval or verdict word to give.
                (false, true) => return format!("{} 0 in both{simulated}", k.counter),
                (false, false) => format!("0 → {}", plumb_model::format::number(k.candidate)),
            };
            let ci = k.ratio_ci.map_or(String::new(), |i| {
                format!(" [{}, {}]", factor(i.lo), factor(i.hi))
            });
            format!("{} {ratio}{ci} {word}{simulated}", k.counter)
        })
        .collect();
    Some(format!("counters: {}", parts.join(" · ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::quantity::{Confidence, Fraction};
    use plumb_model::Interval;

    fn judged(reason: VerdictReason, welch_p: f64, mann_whitney_p: f64) -> Comparison {
        Comparison {
            verdict: Verdict::Slower,
            reason,
            ratio: 1.1,
            ratio_ci: Some(Interval { lo: 1.05, hi: 1.15 }),
            welch_p,
            mann_whitney_p,
            tost_p: 0.5,
            ..Comparison::unjudged("a", "b", Confidence::DEFAULT, Fraction::DEFAULT_SESOI)
        }
    }

    #[test]
    fn sentences_name_the_figures_and_the_test_disagreement() {
        let c = judged(
            VerdictReason::BeyondSesoi {
                constant_samples: false,
            },
            1e-20,
            0.2,
        );
        assert_eq!(
            reason_text(&c),
            "+10.0%: the whole ratio CI [1.050, 1.150] lies beyond the SESOI of ±2%; Welch p<1e-15 but Mann-Whitney p=2.00e-1: the means differ, the ranks do not (a change in the tail, e.g. some slow runs)"
        );
        // 5 runs against 5: the ranks cannot go below 2/252 = 7.9e-3, above α = 1e-3.
        let c = Comparison {
            mann_whitney_min_p: Some(2.0 / 252.0),
            ..judged(
                VerdictReason::BeyondSesoi {
                    constant_samples: false,
                },
                1e-5,
                2.0 / 252.0,
            )
        };
        assert_eq!(
            reason_text(&c),
            "+10.0%: the whole ratio CI [1.050, 1.150] lies beyond the SESOI of ±2%; Welch p=1.00e-5, Mann-Whitney p=7.94e-3: with these few samples the ranks cannot give less than p=7.94e-3, so they cannot confirm at 99.9% confidence"
        );
        let c = judged(VerdictReason::StraddlesSesoi, 1e-5, 1e-5);
        assert!(
            reason_text(&c).contains("straddles the SESOI of ±2%"),
            "{}",
            reason_text(&c)
        );
        let c = judged(VerdictReason::WithinSesoi, 1e-5, 1e-5);
        assert!(
            reason_text(&c).contains("is significant"),
            "{}",
            reason_text(&c)
        );
        let c = judged(VerdictReason::WithinSesoi, 0.5, 0.5);
        assert!(
            !reason_text(&c).contains("is significant"),
            "{}",
            reason_text(&c)
        );
        let c = judged(
            VerdictReason::BaselineNearZero {
                baseline_mean: 0.25,
                launches: 0,
            },
            0.5,
            0.5,
        );
        assert!(reason_text(&c).contains("(2.500e-1) is not distinguishable from zero"));
    }

    #[test]
    fn percentile_reasons() {
        let p = PercentileComparison {
            percentile: "p99".into(),
            base: plumb_model::quantity::Duration::from_micros(100),
            new: plumb_model::quantity::Duration::from_micros(120),
            ratio: 1.2,
            ratio_ci: Some(Interval { lo: 1.1, hi: 1.3 }),
            verdict: Verdict::Slower,
            base_runs: 5,
            new_runs: 4,
        };
        assert_eq!(
            percentile_reason_text(&p),
            "+20.0%; the ratio's interval [1.100, 1.300] over 5 and 4 runs lies above 1 + SESOI"
        );
        let single = PercentileComparison {
            verdict: Verdict::Inconclusive,
            base_runs: 1,
            new_runs: 1,
            ..p.clone()
        };
        assert!(percentile_reason_text(&single).starts_with(
            "+20.0%; one run per side cannot tell a change from run-to-run variation (within the runs, as if requests were independent: [1.100, 1.300])"
        ));
        let p = PercentileComparison {
            ratio_ci: None,
            verdict: Verdict::Inconclusive,
            ..p
        };
        assert!(percentile_reason_text(&p).starts_with("fewer than 10 requests beyond p99"));
    }

    #[test]
    fn counters_that_moved_read_on_one_line() {
        let mut c = judged(VerdictReason::Unjudged, 0.5, 0.5);
        assert_eq!(counter_changes_text(&c), None);
        let change = |counter: &str, source, ratio, ci: Option<(f64, f64)>, verdict| {
            plumb_model::CounterChange {
                counter: counter.into(),
                source,
                baseline: 2.0,
                candidate: 2.0 * ratio,
                ratio,
                ratio_ci: ci.map(|(lo, hi)| plumb_model::Interval { lo, hi }),
                verdict,
            }
        };
        use plumb_model::Source::{HardwareCounter, Simulated, SoftwareCounter};
        c.counters = vec![
            change("ipc", HardwareCounter, 0.5, None, Verdict::Slower),
            change(
                "instructions",
                HardwareCounter,
                1.0,
                Some((0.99, 1.01)),
                Verdict::Equivalent,
            ),
            change("d1-misses", Simulated, 30.0, None, Verdict::Slower),
            change(
                "page-faults",
                SoftwareCounter,
                f64::INFINITY,
                None,
                Verdict::Inconclusive,
            ),
        ];
        (c.counters[3].baseline, c.counters[3].candidate) = (0.0, 3.0);
        assert_eq!(
            counter_changes_text(&c).unwrap(),
            "counters: ipc ×0.500 lower · instructions ×1.000 [0.990, 1.010] same · d1-misses ×30.00 more (simulated) · page-faults 0 → 3.000 unclear"
        );
    }
}
