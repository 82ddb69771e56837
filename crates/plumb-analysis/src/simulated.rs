//! A benchmark's simulated runs judged as its timed samples are: with at least two runs
//! a side, a simulated count (estimated cycles, instructions, misses) gets its interval
//! and verdict from the same judgement as time (Fieller's interval, TOST, Welch, the one
//! decision), so `--metric estimated-cycles` and the gate on cycles stand on the
//! simulation's own noise between invocations. One run a side is an exact ratio
//! (`explain::by_ratio`, `summary_verdict/counts.rs`).
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{Benchmark, Comparison, Metric, Source};

/// The fewest simulated runs a side needs for an interval.
pub const FEWEST_SIMULATED_RUNS: usize = 2;

/// A benchmark whose samples, metrics and statistics are `b`'s simulated runs'.
fn simulated_view(b: &Benchmark) -> Option<Benchmark> {
    let sim = b.simulated.as_ref()?;
    let mut view = Benchmark::new(b.name.clone(), b.kind());
    view.metrics = sim.metrics.clone();
    view.samples = sim.samples.clone();
    view.stats = sim.stats.clone();
    Some(view)
}

/// Whether `metric` is simulated on `b` and not measured by its timed runs.
pub(crate) fn only_simulated(b: &Benchmark, metric: &Metric) -> bool {
    !b.metrics.contains_key(metric)
        && b.simulated
            .as_ref()
            .and_then(|s| s.metrics.get(metric))
            .is_some_and(|i| i.source == Source::Simulated)
}

/// `cand` against `base` on a simulated `metric` over both sides' simulated runs; `None`
/// unless each side has `FEWEST_SIMULATED_RUNS` of it.
pub(crate) fn judge_simulated(
    base: &Benchmark,
    cand: &Benchmark,
    metric: &Metric,
    level: Confidence,
    sesoi: Fraction,
) -> Option<Comparison> {
    let (b, c) = (simulated_view(base)?, simulated_view(cand)?);
    let runs = |v: &Benchmark| v.per_op(metric).len();
    if runs(&b) < FEWEST_SIMULATED_RUNS || runs(&c) < FEWEST_SIMULATED_RUNS {
        return None;
    }
    Some(crate::verdict::judge(&b, &c, metric, level, sesoi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{BenchmarkKind, MetricInfo, SimulatedCounts, Verdict};

    /// A command benchmark whose simulated runs counted `cycles` each.
    pub(crate) fn simulated(name: &str, cycles: &[u64]) -> Benchmark {
        let mut b = Benchmark::new(name, BenchmarkKind::Command);
        let mut sim = SimulatedCounts::new("cachegrind", None);
        let m = Metric::EstimatedCycles;
        sim.metrics
            .insert(m.clone(), MetricInfo::known(&m, Source::Simulated));
        for &c in cycles {
            sim.samples.push(1, &[(m.clone(), c)]);
        }
        b.simulated = Some(sim);
        b
    }

    fn judged(a: &[u64], b: &[u64]) -> Comparison {
        let m = Metric::EstimatedCycles;
        let (level, sesoi) = (Confidence::DEFAULT, Fraction::new(0.005).unwrap());
        judge_simulated(&simulated("a", a), &simulated("b", b), &m, level, sesoi).unwrap()
    }

    /// Constant runs on both sides are an exact ratio: +1 % beyond a 0.5 % SESOI is
    /// slower, the same count equivalent.
    #[test]
    fn constant_runs_judge_their_exact_ratio() {
        let c = judged(&[1_000_000; 3], &[1_010_000; 3]);
        assert_eq!(c.verdict, Verdict::Slower, "{:?}", c.reason);
        assert_eq!(c.ratio_ci.map(|i| (i.lo, i.hi)), Some((1.01, 1.01)));
        assert_eq!(
            judged(&[1_000_000; 3], &[1_000_000; 3]).verdict,
            Verdict::Equivalent
        );
    }

    /// Runs that differ by invocation (addresses that move lines between cache sets):
    /// ±0.1 % around 1,000,000 against +1 %, three runs a side. Fieller's 99.9 % interval
    /// worked in numpy with scipy's `t.ppf(0.9995, 4.0)` = 8.6103 (Welch's df 4.0):
    /// [1.002924, 1.017126].
    #[test]
    fn runs_that_differ_get_an_interval() {
        let c = judged(
            &[999_000, 1_000_000, 1_001_000],
            &[1_008_990, 1_010_000, 1_011_010],
        );
        let ci = c.ratio_ci.unwrap();
        assert!((c.ratio - 1.01).abs() < 1e-9);
        assert!((ci.lo - 1.002924).abs() < 1e-6, "{ci:?}");
        assert!((ci.hi - 1.017126).abs() < 1e-6, "{ci:?}");
        assert_eq!(c.metric, Metric::EstimatedCycles);
        // One run a side has no interval: not judged here.
        let m = Metric::EstimatedCycles;
        let one = simulated("a", &[1]);
        let (l, s) = (Confidence::DEFAULT, Fraction::DEFAULT_SESOI);
        assert!(judge_simulated(&one, &one, &m, l, s).is_none());
        assert!(only_simulated(&one, &m));
        assert!(!only_simulated(&one, &Metric::WallTime));
    }
}
