//! Findings from counters (the CPU's or a simulator's): branch- and memory-bound
//! routines, counts scaled from too little, cache cliffs along a sweep, and time and
//! work that moved apart between two benchmarks.
use crate::quantity::{ByteSize, Duration};
use crate::sweep::CacheMark;
use crate::{Amount, Interval, Metric, Source};
use serde::{Deserialize, Serialize};

/// Mispredicted branches, per operation and as a share of branches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BranchBound {
    #[serde(with = "crate::nan_as_null")]
    pub mispredictions_per_op: f64,
    #[serde(with = "crate::nan_as_null")]
    pub branches_per_op: f64,
    #[serde(with = "crate::nan_as_null")]
    pub miss_rate: f64,
    #[serde(with = "crate::nan_as_null")]
    pub threshold: f64,
    pub source: Source,
}

/// Accesses that miss `cache`, as a share and per operation; with the IPC where the
/// CPU counted it (not under a simulator).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryBound {
    pub cache: String,
    #[serde(with = "crate::nan_as_null")]
    pub miss_rate: f64,
    #[serde(with = "crate::nan_as_null")]
    pub misses_per_op: f64,
    #[serde(with = "crate::nan_as_null")]
    pub threshold: f64,
    pub ipc: Option<f64>,
}

/// Hardware counters live only `live_share` of the measured time (multiplexed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CountedTooMuch {
    #[serde(with = "crate::nan_as_null")]
    pub live_share: f64,
    #[serde(with = "crate::nan_as_null")]
    pub threshold: f64,
}

/// Along a sweep, `metric` per operation ×`ratio` from working set `from` (benchmark
/// `from_benchmark`) to `to`, against this machine's `caches`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheCliff {
    pub metric: Metric,
    pub from_benchmark: String,
    pub from: ByteSize,
    pub to: ByteSize,
    pub from_mean: Amount,
    pub to_mean: Amount,
    #[serde(with = "crate::nan_as_null")]
    pub ratio: f64,
    pub ratio_ci: Option<Interval>,
    /// The machine's data caches, smallest first.
    pub caches: Vec<CacheMark>,
    /// Miss counters both points have, per operation at each.
    pub misses: Vec<MissesAlong>,
}

impl CacheCliff {
    /// The caches whose size lies between the two working sets.
    pub fn passed(&self) -> impl Iterator<Item = &CacheMark> {
        self.caches
            .iter()
            .filter(|m| self.from <= m.size && m.size <= self.to)
    }
}

/// Along a sweep, a step judged slower where no cache of the machine lies between the two
/// working sets, so not a cache cliff. A data TLB whose reach lies between is the edge
/// it names; with none, the cause is left open rather than guessed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SizeStep {
    pub metric: Metric,
    pub from_benchmark: String,
    pub from: ByteSize,
    pub to: ByteSize,
    pub from_mean: Amount,
    pub to_mean: Amount,
    #[serde(with = "crate::nan_as_null")]
    pub ratio: f64,
    pub ratio_ci: Option<Interval>,
    /// The machine's data caches, smallest first (none lies between).
    pub caches: Vec<CacheMark>,
    /// The data TLBs' reaches, smallest first, where the CPU reports them.
    #[serde(default)]
    pub tlb_reaches: Vec<CacheMark>,
    pub misses: Vec<MissesAlong>,
}

impl SizeStep {
    /// A step judged like a cliff whose two sizes have no cache between them, with the
    /// machine's TLB reaches.
    pub fn between_caches(step: CacheCliff, tlb_reaches: Vec<CacheMark>) -> SizeStep {
        SizeStep {
            metric: step.metric,
            from_benchmark: step.from_benchmark,
            from: step.from,
            to: step.to,
            from_mean: step.from_mean,
            to_mean: step.to_mean,
            ratio: step.ratio,
            ratio_ci: step.ratio_ci,
            caches: step.caches,
            tlb_reaches,
            misses: step.misses,
        }
    }

    /// The TLB reaches between the two working sets.
    pub fn tlbs_passed(&self) -> impl Iterator<Item = &CacheMark> {
        self.tlb_reaches
            .iter()
            .filter(|m| self.from <= m.size && m.size <= self.to)
    }
}

/// A miss counter per operation at both ends of a cliff.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MissesAlong {
    pub counter: Metric,
    #[serde(with = "crate::nan_as_null")]
    pub from: f64,
    #[serde(with = "crate::nan_as_null")]
    pub to: f64,
}

/// Why a benchmark measured nothing: what showed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "basis", rename_all = "kebab-case")]
pub enum NothingMeasured {
    /// Counted instructions per operation below what any work takes.
    FewInstructions {
        #[serde(with = "crate::nan_as_null")]
        instructions_per_op: f64,
        #[serde(with = "crate::nan_as_null")]
        threshold: f64,
        source: Source,
    },
    /// Per-operation times whose ranks an empty body's cannot be told from.
    LikeEmptyBody {
        median_per_op: Amount,
        empty_body_median: Amount,
    },
    /// A median per call below one CPU cycle.
    BelowOneCycle {
        median_per_op: Amount,
        cycle: Duration,
    },
}

/// Time moved between two benchmarks while the work did not (`work`: the simulated
/// estimated cycles where both sides have them, else instructions); `moved`: the other
/// counters that did; `believe`: which of the two to go by, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimeNotWork {
    #[serde(with = "crate::nan_as_null")]
    pub time_ratio: f64,
    #[serde(default = "instructions")]
    pub work: Metric,
    #[serde(with = "crate::nan_as_null", alias = "instructions_ratio")]
    pub work_ratio: f64,
    #[serde(alias = "instructions_source")]
    pub work_source: Source,
    pub moved: Vec<CounterMoved>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub believe: Option<Believe>,
}

/// Results written before the work could be estimated cycles judged instructions.
fn instructions() -> Metric {
    Metric::Instructions
}

/// Which of time and work to go by when their verdicts disagree, and why (plumb-analysis'
/// `explain` decides it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Believe {
    /// The time: most of it is spent off the CPU (sleeping, waiting on I/O or other
    /// processes), which a simulation does not count.
    TimeOffCpu,
    /// The time: it settled, and what moved lies outside the simulated work (the kernel,
    /// the real caches' and predictor's timing, alignment, the clock's frequency).
    TimeSettled,
    /// The time, for what users wait: the work changed, and the time shows it hidden
    /// (overlapped, or cheap instructions).
    TimeHidesWork,
    /// The work: the time did not settle on this machine, and the program spends its time
    /// on the CPU, where the simulated work is.
    WorkCpuBound,
}

/// A counter that moved beyond the SESOI, by name (`ipc` is one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CounterMoved {
    pub counter: String,
    #[serde(with = "crate::nan_as_null")]
    pub ratio: f64,
}

/// The work (estimated cycles, else instructions) moved between two benchmarks while the
/// time did not: equivalent, or not settled (`time_verdict`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkNotTime {
    #[serde(with = "crate::nan_as_null")]
    pub time_ratio: f64,
    #[serde(default = "equivalent")]
    pub time_verdict: crate::Verdict,
    #[serde(default = "instructions")]
    pub work: Metric,
    #[serde(with = "crate::nan_as_null", alias = "instructions_ratio")]
    pub work_ratio: f64,
    #[serde(alias = "instructions_source")]
    pub work_source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub believe: Option<Believe>,
}

/// Results written before an unsettled time was judged here had only equivalent ones.
fn equivalent() -> crate::Verdict {
    crate::Verdict::Equivalent
}
