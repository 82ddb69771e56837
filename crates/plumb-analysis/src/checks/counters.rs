//! Diagnoses from counters, whichever source counted them (the CPU, or a simulation):
//! branch-bound, memory-bound, and nothing measured. Their thresholds are the priors of
//! the blog series' counter table (`../shared/reading/first-things-first.md`): branch
//! misses above ~5 % of branches, cache misses above ~10 %, IPC below ~1.0 — starting
//! points for a look, not verdicts, and said as such.

use super::{pct, sig4};
use plumb_model::{Benchmark, Diagnostic, DiagnosticCode, Metric, Severity, Source};

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
    [branch_bound(b), memory_bound(b), nothing_counted(b)]
        .into_iter()
        .flatten()
        .collect()
}

fn sum_of(b: &Benchmark, metrics: &[Metric]) -> Option<(f64, Source)> {
    let mut found = metrics.iter().filter_map(|m| b.counted_mean(m));
    let (first, source) = found.next()?;
    Some((first + found.map(|(v, _)| v).sum::<f64>(), source))
}

fn source_word(s: Source) -> &'static str {
    if s == Source::Simulated {
        "simulated"
    } else {
        "counted"
    }
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
    Some(
        Diagnostic::new(
            DiagnosticCode::BranchBound,
            Severity::Warning,
            format!(
                "{} of branches mispredicted ({} per operation, {})",
                pct(rate),
                sig4(misses),
                source_word(source)
            ),
        )
        .evidence("mispredictions_per_op", sig4(misses))
        .evidence("branches_per_op", sig4(branches))
        .evidence("miss_rate", sig4(rate))
        .evidence("threshold", BRANCH_MISS_RATE)
        .advice("the time depends on the order of the data: measure sorted and shuffled input both, or make the branch branchless (a conditional move, a table)"),
    )
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
    let mut d = Diagnostic::new(
        DiagnosticCode::MemoryBound,
        Severity::Warning,
        format!(
            "{} of accesses miss the {level} cache ({} misses per operation{})",
            pct(rate),
            sig4(per_op),
            ipc.map_or(", simulated".to_string(), |i| format!(", IPC {i:.2}"))
        ),
    )
    .evidence("level", level)
    .evidence("miss_rate", sig4(rate))
    .evidence("misses_per_op", sig4(per_op))
    .evidence("threshold", limit)
    .advice("the working set does not fit that cache: shrink it, block the loop over it, or make the accesses sequential; a sweep over sizes (-L size …) shows where the cliff is");
    if let Some(i) = ipc {
        d = d.evidence("ipc", sig4(i));
    }
    Some(d)
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

fn nothing_counted(b: &Benchmark) -> Option<Diagnostic> {
    let (instructions, source) = b.counted_mean(&Metric::Instructions)?;
    (instructions < NOTHING_INSTRUCTIONS).then(|| {
        Diagnostic::new(
            DiagnosticCode::NothingMeasured,
            Severity::Error,
            format!(
                "{} instructions per operation ({}): too few for any work beyond counting the loop",
                sig4(instructions),
                source_word(source)
            ),
        )
        .evidence("instructions_per_op", sig4(instructions))
        .evidence("threshold", NOTHING_INSTRUCTIONS)
        .advice("the compiler removed the work, or the operations per run are overstated: pass the inputs through black_box and use the result")
    })
}
