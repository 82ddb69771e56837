//! Findings about a benchmark's design, not its run: the red flags of "Why Benchmarks
//! Lie" (data that fits in cache, sequential keys, one thread, fixed-size values, no
//! durability, a clean state every run, too short a run) and of load-test design (a closed
//! loop asked for a percentile, too few samples for it, too little concurrency for the
//! rate, the generator beside the target, one launch), and a declared trait the run
//! contradicts. Each is decided from the `Design` and this machine (plumb-analysis's
//! `design_checks`).
use crate::quantity::{ByteSize, Duration};
use crate::Verdict;
use serde::{Deserialize, Serialize};

/// The whole working set fits in the last-level cache: the benchmark measures cache.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkingSetInCache {
    pub working_set: ByteSize,
    /// True when estimated from records × record size rather than declared.
    pub estimated: bool,
    pub cache: String,
    pub cache_size: ByteSize,
    /// Production's working set, where it was declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub production: Option<ByteSize>,
}

/// The working set fits in memory while production's does not: the benchmark never
/// reads from disk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkingSetInMemory {
    pub working_set: ByteSize,
    pub estimated: bool,
    pub memory: ByteSize,
    pub production: ByteSize,
}

/// The items taking `share` of a skewed key distribution's accesses fit in the last-level
/// cache, though the whole data set does not: most operations hit cache.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HotSetInCache {
    pub distribution: String,
    pub theta: f64,
    pub records: u64,
    pub hot_items: u64,
    pub share: f64,
    pub hot_set: ByteSize,
    pub cache: String,
    pub cache_size: ByteSize,
}

/// Keys in order only: prefetchers and branch predictors see a pattern production lacks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SequentialKeys {
    /// Production's key distribution, where it was declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub production: Option<String>,
}

/// One thread issues every operation: no contention is measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SingleThread {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub production: Option<u32>,
}

/// Every value the same size: allocation, copying and page layout see one size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FixedSizeValues {
    pub size: ByteSize,
}

/// Writes are not made durable: no fsync is measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoDurability {
    /// Production's durability, where it was declared ("fsync-per-op", "group-commit").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub production: Option<String>,
}

/// Every run starts from a fresh store: no fragmentation, compaction debt or aged layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CleanState {}

/// A write-heavy run writes less than `times` its data: it ends before compaction,
/// eviction or log recycling reach their steady state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TooShortToSteady {
    pub written: ByteSize,
    pub data: ByteSize,
    pub times: f64,
}

/// A closed loop asked for a latency percentile: each thread waits for its last operation
/// before sending the next, so a stall delays the requests that would have seen it
/// (coordinated omission).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClosedLoopPercentile {
    pub percentile: f64,
}

/// The run yields fewer than `needed` samples beyond the percentile asked: the percentile
/// is decided by a handful of values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TooFewForPercentile {
    pub percentile: f64,
    /// Samples expected (or taken) in the run.
    pub samples: f64,
    /// Of which beyond the percentile: samples × (1 − p).
    pub beyond: f64,
    pub needed: f64,
}

/// An open loop at `rate` with operations taking `latency` needs rate × latency in flight
/// (Little's law); fewer threads or connections cannot offer the rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConcurrencyBelowLittle {
    pub rate: f64,
    pub latency: Duration,
    pub needed: f64,
    pub threads: u32,
}

/// The load generator runs on the machine it measures: the two share cores and caches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GeneratorOnTarget {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

/// One process measured: its code and stack layout, heap placement and ASLR draw are one
/// sample of many, fixed for the whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OneLaunch {}

/// A declared trait the run contradicts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DesignMismatch {
    pub field: String,
    pub declared: String,
    pub measured: String,
}

/// The verdict depends on the question: judged on another statistic (the median, p99,
/// the mean), the same two benchmarks give another answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuestionMatters {
    /// The question the verdict answered ("typical case (median)").
    pub asked: String,
    pub answers: Vec<QuestionAnswer>,
    /// Set when no question was asked and the verdict answers the median because far-out
    /// samples left the mean inconclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean_swayed: Option<FarOut>,
}

/// The far-out samples (beyond Tukey's 3·IQR fences) of the two sides of a comparison:
/// how many of how many, and the one farthest from its side's median, as a multiple of
/// that median.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FarOut {
    pub far_out: usize,
    pub samples: usize,
    #[serde(with = "crate::nan_as_null")]
    pub farthest_times_median: f64,
}

/// One question's answer for a comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuestionAnswer {
    /// The statistic compared: "mean", "median", "p99".
    pub statistic: String,
    pub verdict: Verdict,
    #[serde(with = "crate::nan_as_null")]
    pub ratio: f64,
}

/// What the benchmark's time is sensitive to (the talk's "Sensitivity: BPU-heavy?
/// Cache-reliant? Scheduler-jitter?"), each with the evidence that says so: a change in
/// that part of the machine moves this number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sensitivity {
    pub to: Vec<Sensitive>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Sensitive {
    /// Mispredicted branches are a high share of branches.
    BranchPredictor {
        #[serde(with = "crate::nan_as_null")]
        miss_rate: f64,
        source: crate::Source,
    },
    /// Misses in `cache` are a high share of accesses, or time jumps where the working
    /// set passes it (`cliff`: the ratio across it).
    Cache {
        cache: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        miss_rate: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cliff: Option<f64>,
    },
    /// The distribution's right tail is long (p99 / median) or it has several modes: runs
    /// that the scheduler, an interrupt or a frequency change delayed.
    SchedulerJitter {
        #[serde(with = "crate::nan_as_null")]
        tail_ratio: f64,
        modes: usize,
    },
}
