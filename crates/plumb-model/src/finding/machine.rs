//! Findings about the machine a result was measured on, and about two machines (or two
//! results) compared.
use serde::{Deserialize, Serialize};

/// The frequency governors, when one is not `performance`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CpuGovernor {
    pub governors: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turbo {}

/// A 1-minute load average high for the hardware threads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BusyMachine {
    #[serde(with = "crate::nan_as_null")]
    pub load: f64,
    pub threads: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Virtualized {
    pub virtualization: String,
}

/// The kernel's clock source, when not `tsc`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClockSource {
    pub clock_source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Smt {}

/// No isolated CPUs, and the benchmark may run on any of `affinity`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NotPinned {
    pub affinity: Vec<usize>,
}

/// `/proc/sys/kernel/randomize_va_space`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Aslr {
    pub randomize_va_space: u8,
}

/// What of the machine differs between two results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MachineField {
    Host,
    Cpu,
    Kernel,
    Virtualization,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DifferentMachine {
    pub field: MachineField,
    pub base: Option<String>,
    pub new: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DifferentFrequencyPolicy {
    pub base_governors: Vec<String>,
    pub new_governors: Vec<String>,
    pub base_turbo: Option<bool>,
    pub new_turbo: Option<bool>,
}

/// 1-minute load averages of the two runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DifferentLoad {
    #[serde(with = "crate::nan_as_null")]
    pub base: f64,
    #[serde(with = "crate::nan_as_null")]
    pub new: f64,
    pub threads: usize,
}

/// `benchmark`'s means differ (×`mean_ratio`) where its fastest samples agree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BestCaseAgrees {
    pub benchmark: String,
    #[serde(with = "crate::nan_as_null")]
    pub mean_ratio: f64,
    #[serde(with = "crate::nan_as_null")]
    pub min_ratio: f64,
}

/// The only benchmark of each result, compared under different names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairedByElimination {
    pub base: String,
    pub new: String,
}

/// This run's mean lies outside the interval the benchmark's recent runs on this machine
/// predict (their level and its drift between runs, with this run's own error): the
/// machine's state changed, or the code did, and the interval between runs does not hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnlikeRecentRuns {
    pub benchmark: String,
    /// This run's mean relative to the recent runs' (0.08: 8 % above them).
    #[serde(with = "crate::nan_as_null")]
    pub shift: f64,
    /// Their drift between runs (relative standard deviation of a run's mean).
    #[serde(with = "crate::nan_as_null")]
    pub noise: f64,
    pub runs: usize,
    pub since: String,
}

/// Two separate runs compared: each run's interval sees only its own noise, not the noise
/// between runs (a machine's state drifting between them). Either that noise was measured
/// in the history of the benchmark on this machine and the ratio's interval widened by it,
/// or it is unknown here and said so; the runs' own machine findings are passed on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "basis", rename_all = "kebab-case")]
pub enum SeparateRuns {
    /// The between-run noise of `benchmark`, measured in its history: the relative
    /// standard deviation of one run's mean across `points` runs since `since` (no change
    /// point among them), the within-run part taken out.
    Measured {
        benchmark: String,
        #[serde(with = "crate::nan_as_null")]
        noise: f64,
        points: usize,
        since: String,
        /// The ratio's interval from the two runs alone, and the verdict it gave.
        interval_within: Option<crate::Interval>,
        verdict_within: crate::Verdict,
        /// Machine findings of either run (`base: busy-machine`).
        machine: Vec<String>,
    },
    /// No history of these benchmarks on this machine: the noise between runs is unknown.
    /// Each decisive verdict holds only while the runs drifted apart by less than its
    /// `assumed` drift.
    Unmeasured {
        machine: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        assumed: Vec<AssumedDrift>,
    },
}

/// A verdict between separate runs and the drift between them (relative standard
/// deviation of one run's mean) beyond which it would not hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AssumedDrift {
    pub benchmark: String,
    pub verdict: crate::Verdict,
    #[serde(with = "crate::nan_as_null")]
    pub drift: f64,
}
