//! Compare explains: beside a verdict on time, what moved in the counters both sides
//! have — IPC, instructions, branch and cache misses, page faults per operation — and
//! what that says: time moved but the work did not (the machine, the code's layout or
//! its memory behaviour changed), or the work moved but time did not.

use crate::called::verdict_of;
use crate::question::{judge_question, judge_unasked, question_matters};
use crate::verdict::judge;
use plumb_model::quantity::{Confidence, Duration, Fraction};
use plumb_model::{Benchmark, Comparison, CounterChange, Metric, Question, Source, Verdict};
use plumb_stats::{decide, Evidence, Interval, Look};

/// The counters a comparison is explained by, in the order they are shown. Hardware and
/// simulated names of one thing are both listed; a pair of benchmarks has one or the
/// other.
const EXPLAINING: [Metric; 12] = [
    Metric::Instructions,
    Metric::Cycles,
    Metric::EstimatedCycles,
    Metric::BranchMisses,
    Metric::ConditionalMispredictions,
    Metric::L1dLoadMisses,
    Metric::LlcLoadMisses,
    Metric::CacheMisses,
    Metric::D1Misses,
    Metric::LlMisses,
    Metric::PageFaults,
    Metric::ContextSwitches,
];

/// What a comparison is asked: the metric per operation, the confidence, the SESOI, the
/// question (which statistic) and the clock's resolution (what a best-case verdict must
/// exceed).
#[derive(Debug, Clone, Copy)]
pub struct Asked<'a> {
    pub metric: &'a Metric,
    pub level: Confidence,
    pub sesoi: Fraction,
    pub question: Question,
    /// Whether the user asked the question: the mean asked is answered even when far-out
    /// samples leave it inconclusive; not asked, the median may answer (`judge_unasked`).
    pub question_given: bool,
    pub resolution: Option<Duration>,
}

impl<'a> Asked<'a> {
    /// The mean of `metric`, as every comparison was judged before questions.
    pub fn mean(metric: &'a Metric, level: Confidence, sesoi: Fraction) -> Self {
        Asked {
            metric,
            level,
            sesoi,
            question: Question::Mean,
            question_given: true,
            resolution: None,
        }
    }
}

/// `cand` against `base` answering `asked`, with what the counters both have say beside
/// it and, where another question gets another answer, the note that says so.
pub fn compare_explained(base: &Benchmark, cand: &Benchmark, asked: &Asked<'_>) -> Comparison {
    let (level, sesoi, resolution) = (asked.level, asked.sesoi, asked.resolution);
    // A simulated metric asked (`--metric estimated-cycles`): its runs are its samples.
    let simulated = |b: &Benchmark| crate::simulated::only_simulated(b, asked.metric);
    if simulated(base) && simulated(cand) {
        if let Some(mut c) =
            crate::simulated::judge_simulated(base, cand, asked.metric, level, sesoi)
        {
            explain(&mut c, base, cand);
            return c;
        }
    }
    let (mut c, swayed) = match asked.question_given || !asked.question.is_mean() {
        true => (
            judge_question(
                base,
                cand,
                asked.metric,
                level,
                sesoi,
                asked.question,
                resolution,
            ),
            None,
        ),
        false => judge_unasked(base, cand, asked.metric, (level, sesoi), resolution),
    };
    explain(&mut c, base, cand);
    c.notes.extend(question_matters(
        base,
        cand,
        &c,
        resolution,
        swayed.as_ref(),
    ));
    c
}

/// Fills `c.counters` and `c.notes` from the counters `base` and `cand` both have.
fn explain(c: &mut Comparison, base: &Benchmark, cand: &Benchmark) {
    let (level, sesoi) = (c.level, c.sesoi);
    c.counters = EXPLAINING
        .iter()
        .filter_map(|m| change(base, cand, m, level, sesoi))
        .collect();
    if let Some(ipc) = ipc_change(base, cand, sesoi) {
        c.counters.insert(0, ipc);
    }
    if c.metric == Metric::WallTime {
        c.notes = crate::work_and_time::work_and_time(c, base, cand)
            .into_iter()
            .collect();
    }
}

fn change(
    base: &Benchmark,
    cand: &Benchmark,
    m: &Metric,
    level: Confidence,
    sesoi: Fraction,
) -> Option<CounterChange> {
    let (b, source) = base.counted_mean(m)?;
    let (n, other) = cand.counted_mean(m)?;
    if source != other {
        return None;
    }
    let judged = match source {
        Source::Simulated => crate::simulated::judge_simulated(base, cand, m, level, sesoi),
        _ => Some(judge(base, cand, m, level, sesoi)),
    };
    // One simulated run a side: its exact ratio.
    let Some(k) = judged else {
        return Some(by_ratio(m.as_str(), source, b, n, sesoi, false));
    };
    Some(CounterChange {
        counter: m.as_str().to_string(),
        source,
        baseline: b,
        candidate: n,
        ratio: k.ratio,
        ratio_ci: k.ratio_ci,
        verdict: k.verdict,
    })
}

/// A change judged by its ratio alone: equivalent within the SESOI (or both zero),
/// else more (`slower`) or fewer (`faster`); `higher_is_faster` flips that, for IPC.
fn by_ratio(
    counter: &str,
    source: Source,
    baseline: f64,
    candidate: f64,
    sesoi: Fraction,
    higher_is_faster: bool,
) -> CounterChange {
    let ratio = if baseline > 0.0 {
        candidate / baseline
    } else if candidate > 0.0 {
        f64::INFINITY
    } else {
        1.0
    };
    // An exact ratio is its own interval.
    let exact = Interval {
        lo: ratio,
        hi: ratio,
    };
    let verdict = match verdict_of(decide(exact, sesoi.get(), Evidence::Interval, Look::Fixed)) {
        Verdict::Slower if higher_is_faster => Verdict::Faster,
        Verdict::Faster if higher_is_faster => Verdict::Slower,
        v => v,
    };
    CounterChange {
        counter: counter.to_string(),
        source,
        baseline,
        candidate,
        ratio,
        ratio_ci: None,
        verdict,
    }
}

fn ipc_change(base: &Benchmark, cand: &Benchmark, sesoi: Fraction) -> Option<CounterChange> {
    let b = base.counter_ratio(&Metric::Instructions, &Metric::Cycles)?;
    let n = cand.counter_ratio(&Metric::Instructions, &Metric::Cycles)?;
    Some(by_ratio("ipc", Source::HardwareCounter, b, n, sesoi, true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{BenchmarkKind, MetricInfo};

    const LEVEL: Confidence = Confidence::DEFAULT;

    /// Ten runs of `ns` with `instructions` and `misses` per run, each ±0.45 %.
    fn bench(name: &str, ns: f64, instructions: f64, misses: f64) -> Benchmark {
        let mut b = Benchmark::new(name, BenchmarkKind::Command);
        for m in [
            Metric::WallTime,
            Metric::Instructions,
            Metric::Cycles,
            Metric::LlcLoadMisses,
        ] {
            let info = if m == Metric::WallTime {
                MetricInfo::measured(&m)
            } else {
                MetricInfo::known(&m, Source::HardwareCounter)
            };
            b.metrics.insert(m, info);
        }
        for i in 0..10 {
            let wobble = 1.0 + 0.001 * (i as f64 - 4.5);
            b.samples.push(
                1,
                &[
                    (Metric::WallTime, (ns * wobble) as u64),
                    (Metric::Instructions, (instructions * wobble) as u64),
                    (Metric::Cycles, (ns * 3.0 * wobble) as u64),
                    (Metric::LlcLoadMisses, (misses * wobble) as u64),
                ],
            );
        }
        crate::analyse_benchmark(
            &mut b,
            &crate::AnalysisConfig {
                level: LEVEL,
                sesoi: Fraction::DEFAULT_SESOI,
                drop_upper_outliers: false,
                metric: Metric::WallTime,
                question: plumb_model::Question::Mean,
                question_given: false,
            },
        );
        b
    }

    fn explained(base: &Benchmark, cand: &Benchmark) -> Comparison {
        compare_explained(
            base,
            cand,
            &Asked::mean(&Metric::WallTime, LEVEL, Fraction::DEFAULT_SESOI),
        )
    }

    #[test]
    fn time_moved_with_the_same_instructions_and_more_misses() {
        let base = bench("a", 1e6, 2e6, 1000.0);
        let slower = bench("b", 1.5e6, 2e6, 30_000.0);
        let c = explained(&base, &slower);
        assert_eq!(c.verdict, Verdict::Slower);
        let names: Vec<&str> = c.counters.iter().map(|k| k.counter.as_str()).collect();
        assert_eq!(names, ["ipc", "instructions", "cycles", "llc-load-misses"]);
        let instructions = &c.counters[1];
        assert_eq!(instructions.verdict, Verdict::Equivalent);
        assert!(instructions.ratio_ci.is_some());
        // IPC: 2e6 / 3e6 cycles against 2e6 / 4.5e6 is ×0.667, lower: "slower".
        assert!((c.counters[0].ratio - 2.0 / 3.0).abs() < 1e-3);
        assert_eq!(c.counters[0].verdict, Verdict::Slower);
        assert_eq!(c.notes.len(), 1);
        let plumb_model::Finding::TimeNotWork(f) = &c.notes[0].finding else {
            panic!("{:?}", c.notes)
        };
        assert_eq!(f.moved.len(), 1, "{f:?}");
        assert_eq!(f.moved[0].counter, "llc-load-misses");
        assert!((f.moved[0].ratio - 30.0).abs() < 0.05, "{f:?}");
    }

    #[test]
    fn instructions_moved_with_the_same_time() {
        let base = bench("a", 1e6, 2e6, 1000.0);
        let fewer = bench("b", 1e6, 1.2e6, 1000.0);
        let c = explained(&base, &fewer);
        assert_eq!(c.verdict, Verdict::Equivalent);
        let plumb_model::Finding::WorkNotTime(f) = &c.notes[0].finding else {
            panic!("{:?}", c.notes)
        };
        assert!((f.work_ratio - 0.6).abs() < 1e-9, "{f:?}");
        assert_eq!(
            f.believe,
            Some(plumb_model::finding::Believe::TimeHidesWork)
        );
        // Both moved together: nothing to flag.
        let c = explained(&base, &bench("c", 1.5e6, 3e6, 1000.0));
        assert_eq!(c.verdict, Verdict::Slower);
        assert!(c.notes.is_empty(), "{:?}", c.notes);
    }

    #[test]
    fn simulated_counts_are_judged_by_their_exact_ratio() {
        let k = by_ratio(
            "instructions",
            Source::Simulated,
            100.0,
            101.0,
            Fraction::DEFAULT_SESOI,
            false,
        );
        assert_eq!((k.verdict, k.ratio_ci), (Verdict::Equivalent, None));
        let k = by_ratio(
            "d1-misses",
            Source::Simulated,
            0.0,
            0.0,
            Fraction::DEFAULT_SESOI,
            false,
        );
        assert_eq!((k.verdict, k.ratio), (Verdict::Equivalent, 1.0));
        let k = by_ratio(
            "d1-misses",
            Source::Simulated,
            0.0,
            3.0,
            Fraction::DEFAULT_SESOI,
            false,
        );
        assert_eq!(k.verdict, Verdict::Slower);
        let k = by_ratio(
            "conditional-mispredictions",
            Source::Simulated,
            0.5,
            0.003,
            Fraction::DEFAULT_SESOI,
            false,
        );
        assert_eq!(k.verdict, Verdict::Faster);
    }
}
