//! Diagnoses from counters, whichever source counted them (the CPU, or a simulation):
//! branch-bound, memory-bound, and nothing measured. Their thresholds are the priors of
//! the blog series' counter table (`../shared/reading/first-things-first.md`): branch
//! misses above ~5 % of branches, cache misses above ~10 %, IPC below ~1.0 — starting
//! points for a look, not verdicts, and said as such.

use plumb_model::finding::{BranchBound, CountedTooMuch, MemoryBound, NothingMeasured};
use plumb_model::{Benchmark, Diagnostic, Metric, Severity, Source};

/// Mispredicted branches, as a share of branches, above which prediction is failing.
const BRANCH_MISS_RATE: f64 = 0.05;
/// Fewer mispredictions per operation than this cost too little to matter, whatever
/// their rate.
const MISPREDICTIONS_PER_OP: f64 = 0.05;
/// Measured IPC below which the core is mostly waiting.
const LOW_IPC: f64 = 1.0;
/// Hardware: L1d or LLC load misses, as a share of loads, that point at the working set.
const MISS_RATE: f64 = 0.10;
/// Simulated: cachegrind does not prefetch, so a plain stream misses the L1 once per line
/// (12.5 % of 8-byte accesses) and the level-1 threshold sits above that.
const SIM_D1_MISS_RATE: f64 = 0.25;
/// Fewer instructions per operation than this leave no room for work beyond counting
/// the loop.
const NOTHING_INSTRUCTIONS: f64 = 4.0;

pub fn check(b: &Benchmark) -> Vec<Diagnostic> {
    [
        branch_bound(b),
        memory_bound(b),
        nothing_counted(b),
        multiplexed(b),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn sum_of(b: &Benchmark, metrics: &[Metric]) -> Option<(f64, Source)> {
    let mut found = metrics.iter().filter_map(|m| b.counted_mean(m));
    let (first, source) = found.next()?;
    Some((first + found.map(|(v, _)| v).sum::<f64>(), source))
}

fn branch_bound(b: &Benchmark) -> Option<Diagnostic> {
    let (misses, source) = b.counted_mean(&Metric::BranchMisses).or_else(|| {
        sum_of(
            b,
            &[
                Metric::ConditionalMispredictions,
                Metric::IndirectMispredictions,
            ],
        )
    })?;
    let (branches, _) = b
        .counted_mean(&Metric::Branches)
        .or_else(|| sum_of(b, &[Metric::ConditionalBranches, Metric::IndirectBranches]))?;
    let rate = misses / branches;
    if !(rate > BRANCH_MISS_RATE && misses >= MISPREDICTIONS_PER_OP) {
        return None;
    }
    let finding = BranchBound {
        mispredictions_per_op: misses,
        branches_per_op: branches,
        miss_rate: rate,
        threshold: BRANCH_MISS_RATE,
        source,
    };
    Some(Diagnostic::new(Severity::Warning, finding))
}

fn memory_bound(b: &Benchmark) -> Option<Diagnostic> {
    let ipc = b.counter_ratio(&Metric::Instructions, &Metric::Cycles);
    let hardware = [
        ("L1d", Metric::L1dLoadMisses, Metric::L1dLoads, MISS_RATE),
        ("LLC", Metric::LlcLoadMisses, Metric::LlcLoads, MISS_RATE),
    ];
    let high = hardware
        .iter()
        .rev()
        .find_map(|(level, miss, of, limit)| {
            let rate = b.counter_ratio(miss, of)?;
            let per_op = b.counted_mean(miss)?.0;
            (rate > *limit).then_some((*level, rate, *limit, per_op))
        })
        .filter(|_| ipc.is_some_and(|i| i < LOW_IPC))
        .or_else(|| simulated_misses(b))?;
    let (level, rate, limit, per_op) = high;
    let finding = MemoryBound {
        cache: level.to_string(),
        miss_rate: rate,
        misses_per_op: per_op,
        threshold: limit,
        ipc,
    };
    Some(Diagnostic::new(Severity::Warning, finding))
}

/// The simulated level that misses too often: the last level first (the costlier).
fn simulated_misses(b: &Benchmark) -> Option<(&'static str, f64, f64, f64)> {
    let (accesses, _) = sum_of(b, &[Metric::DataReads, Metric::DataWrites])?;
    if accesses <= 0.0 {
        return None;
    }
    [
        ("last-level", Metric::LlMisses, MISS_RATE),
        ("L1 data", Metric::D1Misses, SIM_D1_MISS_RATE),
    ]
    .into_iter()
    .find_map(|(level, m, limit)| {
        let (misses, source) = b.counted_mean(&m)?;
        let rate = misses / accesses;
        (source == Source::Simulated && rate > limit).then_some((level, rate, limit, misses))
    })
}

/// Below this share of the measured time live, hardware counts are mostly extrapolation.
const LIVE_SHARE: f64 = 0.5;

fn multiplexed(b: &Benchmark) -> Option<Diagnostic> {
    let live = b.stats(&Metric::HardwareLivePpm)?.summary.mean / 1e6;
    (live < LIVE_SHARE).then(|| {
        let finding = CountedTooMuch {
            live_share: live,
            threshold: LIVE_SHARE,
        };
        Diagnostic::new(Severity::Warning, finding)
    })
}

fn nothing_counted(b: &Benchmark) -> Option<Diagnostic> {
    let (instructions, source) = b.counted_mean(&Metric::Instructions)?;
    (instructions < NOTHING_INSTRUCTIONS).then(|| {
        let finding = NothingMeasured::FewInstructions {
            instructions_per_op: instructions,
            threshold: NOTHING_INSTRUCTIONS,
            source,
        };
        Diagnostic::new(Severity::Error, finding)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{BenchmarkKind, MetricInfo, MetricStats, SimulatedCounts};

    fn stats(mean: f64) -> MetricStats {
        MetricStats::of_value(mean)
    }

    /// A benchmark whose timed runs counted `counted` (from `source`) per operation.
    fn counted(source: Source, counted: &[(Metric, f64)]) -> Benchmark {
        let mut b = Benchmark::new("b", BenchmarkKind::Function);
        for (m, mean) in counted {
            b.metrics.insert(m.clone(), MetricInfo::known(m, source));
            b.stats.insert(m.clone(), stats(*mean));
        }
        b
    }

    fn simulated(counts: &[(Metric, f64)]) -> Benchmark {
        let mut b = Benchmark::new("b", BenchmarkKind::Command);
        let mut sim = SimulatedCounts::new("cachegrind", None);
        for (m, mean) in counts {
            sim.metrics
                .insert(m.clone(), MetricInfo::known(m, Source::Simulated));
            sim.stats.insert(m.clone(), stats(*mean));
        }
        b.simulated = Some(sim);
        b
    }

    use plumb_model::{DiagnosticCode, Finding};

    fn codes(b: &Benchmark) -> Vec<DiagnosticCode> {
        check(b).into_iter().map(|d| d.code()).collect()
    }

    /// examples/branchy.c under cachegrind, per element: sorted 3.63 conditional
    /// branches and 0.0168 mispredictions (0.46 %); shuffled 4.63 and 0.517 (11.2 %).
    #[test]
    fn a_high_misprediction_rate_is_branch_bound_and_a_low_one_is_not() {
        let branchy = |branches, misses| {
            simulated(&[
                (Metric::Instructions, 20.0),
                (Metric::ConditionalBranches, branches),
                (Metric::ConditionalMispredictions, misses),
            ])
        };
        assert!(codes(&branchy(3.63, 0.0168)).is_empty());
        let shuffled = check(&branchy(4.63, 0.517));
        let Finding::BranchBound(f) = &shuffled[0].finding else {
            panic!("{shuffled:?}")
        };
        assert!((f.miss_rate - 0.517 / 4.63).abs() < 1e-12, "{f:?}");
        assert_eq!(f.source, Source::Simulated);
        // Hardware counters read the same way.
        let hw = counted(
            Source::HardwareCounter,
            &[
                (Metric::Instructions, 100.0),
                (Metric::Branches, 10.0),
                (Metric::BranchMisses, 1.0),
            ],
        );
        assert_eq!(codes(&hw), [DiagnosticCode::BranchBound]);
    }

    /// Memory-bound needs both a high miss rate and (where measured) a low IPC: 30 % of
    /// L1d loads missing at IPC 0.5 is; the same misses at IPC 2 are not.
    #[test]
    fn memory_bound_needs_misses_and_a_stalled_core() {
        let at_ipc = |cycles| {
            counted(
                Source::HardwareCounter,
                &[
                    (Metric::Instructions, 10.0),
                    (Metric::Cycles, cycles),
                    (Metric::L1dLoads, 10.0),
                    (Metric::L1dLoadMisses, 3.0),
                ],
            )
        };
        let d = check(&at_ipc(20.0));
        let Finding::MemoryBound(f) = &d[0].finding else {
            panic!("{d:?}")
        };
        assert_eq!(
            (f.cache.as_str(), f.miss_rate, f.ipc),
            ("L1d", 0.3, Some(0.5))
        );
        assert!(codes(&at_ipc(5.0)).is_empty());
        // Simulated: a stream (12.5 % of accesses miss L1) is not flagged; random access
        // over a large array (60 % miss L1, 20 % the last level) is, at the last level.
        let sim = |d1, ll| {
            simulated(&[
                (Metric::Instructions, 10.0),
                (Metric::DataReads, 2.0),
                (Metric::DataWrites, 0.0),
                (Metric::D1Misses, d1),
                (Metric::LlMisses, ll),
            ])
        };
        assert!(codes(&sim(0.25, 0.01)).is_empty());
        let random = check(&sim(1.2, 0.4));
        let Finding::MemoryBound(f) = &random[0].finding else {
            panic!("{random:?}")
        };
        assert_eq!((f.cache.as_str(), f.ipc), ("last-level", None));
    }

    #[test]
    fn too_few_instructions_and_multiplexed_counters_are_said() {
        let empty = counted(Source::HardwareCounter, &[(Metric::Instructions, 1.5)]);
        assert_eq!(codes(&empty), [DiagnosticCode::NothingMeasured]);
        let live = |ppm| {
            counted(
                Source::HardwareCounter,
                &[(Metric::Instructions, 50.0), (Metric::HardwareLivePpm, ppm)],
            )
        };
        assert_eq!(codes(&live(300_000.0)), [DiagnosticCode::CountedTooMuch]);
        assert!(codes(&live(1e6)).is_empty());
    }
}
