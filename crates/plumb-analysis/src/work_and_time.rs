//! Time and work side by side: where the verdict on time and the verdict on the work
//! (the simulated estimated cycles where both sides have them, else instructions)
//! disagree, the finding that says so and which of the two to go by.
use plumb_model::finding::{Believe, CounterMoved, TimeNotWork, WorkNotTime};
use plumb_model::{Benchmark, Comparison, CounterChange, Diagnostic, Metric, Severity, Verdict};

/// Below this share of its wall time on the CPU (user and kernel time), a program's time
/// is mostly waiting, which no simulation counts.
const ON_CPU: f64 = 0.5;

/// The counter that stands for the work: estimated cycles, else instructions.
fn work_counter(c: &Comparison) -> Option<(&CounterChange, Metric)> {
    [Metric::EstimatedCycles, Metric::Instructions]
        .into_iter()
        .find_map(|m| Some((c.counters.iter().find(|k| k.counter == m.as_str())?, m)))
}

/// The share of its wall time a benchmark spends on the CPU (means per operation); `None`
/// without CPU times (an in-process routine).
fn cpu_share(b: &Benchmark) -> Option<f64> {
    let mean = |m: &Metric| b.stats(m).map(|s| s.summary.mean);
    let wall = mean(&Metric::WallTime)?;
    let cpu = mean(&Metric::UserTime)? + mean(&Metric::SystemTime).unwrap_or(0.0);
    (wall > 0.0).then_some(cpu / wall)
}

/// "Time moved but the work did not", and the reverse (the work moved and the time did
/// not settle a change), with which to believe.
pub(crate) fn work_and_time(
    c: &Comparison,
    base: &Benchmark,
    cand: &Benchmark,
) -> Option<Diagnostic> {
    let (work, metric) = work_counter(c)?;
    let off_cpu = [base, cand]
        .into_iter()
        .filter_map(cpu_share)
        .any(|share| share < ON_CPU);
    if c.verdict.is_change() && work.verdict == Verdict::Equivalent {
        let finding = TimeNotWork {
            time_ratio: c.ratio,
            work: metric,
            work_ratio: work.ratio,
            work_source: work.source,
            moved: others_moved(c),
            believe: Some(match off_cpu {
                true => Believe::TimeOffCpu,
                false => Believe::TimeSettled,
            }),
        };
        return Some(Diagnostic::new(Severity::Warning, finding));
    }
    // A time that could not be judged at all (a side failed) says nothing against the work.
    if !work.verdict.is_change() || c.verdict.is_change() || c.ratio_ci.is_none() {
        return None;
    }
    let believe = match (c.verdict, off_cpu) {
        (_, true) => Believe::TimeOffCpu,
        (Verdict::Equivalent, false) => Believe::TimeHidesWork,
        _ => Believe::WorkCpuBound,
    };
    let finding = WorkNotTime {
        time_ratio: c.ratio,
        time_verdict: c.verdict,
        work: metric,
        work_ratio: work.ratio,
        work_source: work.source,
        believe: Some(believe),
    };
    Some(Diagnostic::new(Severity::Warning, finding))
}

/// The other counters that moved beyond the SESOI (not the work's, cycles or IPC).
fn others_moved(c: &Comparison) -> Vec<CounterMoved> {
    c.counters
        .iter()
        .filter(|k| {
            !matches!(
                k.counter.as_str(),
                "instructions" | "cycles" | "ipc" | "estimated-cycles"
            )
        })
        .filter(|k| k.verdict.is_change())
        .map(|k| CounterMoved {
            counter: k.counter.clone(),
            ratio: k.ratio,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::finding::Believe;
    use plumb_model::quantity::{Confidence, Fraction};
    use plumb_model::{BenchmarkKind, Finding, MetricStats, Source};
    use plumb_stats::Interval;

    /// A command that spent `cpu` of each `wall` nanoseconds on the CPU.
    fn command(wall: f64, cpu: f64) -> Benchmark {
        let mut b = Benchmark::new("c", BenchmarkKind::Command);
        b.stats
            .insert(Metric::WallTime, MetricStats::of_value(wall));
        b.stats.insert(Metric::UserTime, MetricStats::of_value(cpu));
        b
    }

    fn compared(time: Verdict, cycles: Verdict) -> Comparison {
        let mut c = Comparison::unjudged("a", "b", Confidence::DEFAULT, Fraction::DEFAULT_SESOI);
        (c.verdict, c.ratio) = (time, 1.04);
        c.ratio_ci = Some(Interval { lo: 0.98, hi: 1.1 });
        c.counters.push(CounterChange {
            counter: "estimated-cycles".into(),
            source: Source::Simulated,
            baseline: 1e6,
            candidate: 1.05e6,
            ratio: 1.05,
            ratio_ci: Some(Interval { lo: 1.05, hi: 1.05 }),
            verdict: cycles,
        });
        c
    }

    fn believed(c: &Comparison, share: f64) -> Option<Believe> {
        let b = command(1e6, share * 1e6);
        match work_and_time(c, &b, &b).map(|d| d.finding) {
            Some(Finding::WorkNotTime(f)) => f.believe,
            Some(Finding::TimeNotWork(f)) => f.believe,
            _ => None,
        }
    }

    /// Time not settled, cycles slower: the work, for a CPU-bound program; the time
    /// for one that sleeps most of its time. Time slower with the same cycles: the time.
    #[test]
    fn which_to_believe_follows_where_the_time_goes() {
        let unsettled = compared(Verdict::Inconclusive, Verdict::Slower);
        assert_eq!(believed(&unsettled, 0.95), Some(Believe::WorkCpuBound));
        assert_eq!(believed(&unsettled, 0.1), Some(Believe::TimeOffCpu));
        let hidden = compared(Verdict::Equivalent, Verdict::Slower);
        assert_eq!(believed(&hidden, 0.95), Some(Believe::TimeHidesWork));
        let time_only = compared(Verdict::Slower, Verdict::Equivalent);
        assert_eq!(believed(&time_only, 0.95), Some(Believe::TimeSettled));
        assert_eq!(believed(&time_only, 0.2), Some(Believe::TimeOffCpu));
        // Both moved, or neither: nothing to say; a time that could not be judged neither.
        assert_eq!(
            believed(&compared(Verdict::Slower, Verdict::Slower), 0.9),
            None
        );
        let mut failed = unsettled.clone();
        failed.ratio_ci = None;
        assert_eq!(believed(&failed, 0.9), None);
    }
}
