//! What an enemy check found, as typed evidence: one variant per diagnostic code, with
//! the figures that show it. Checks (plumb-analysis) decide findings; their words are
//! written in one place (plumb-report's `finding`), as verdict reasons are.

mod counters;
mod design;
mod harness;
mod load;
mod machine;
mod recorded;
mod samples;

pub use counters::{
    Believe, BranchBound, CacheCliff, CountedTooMuch, CounterMoved, MemoryBound, MissesAlong,
    NothingMeasured, SizeStep, TimeNotWork, WorkNotTime,
};
pub use design::{
    CleanState, ClosedLoopPercentile, ConcurrencyBelowLittle, DesignMismatch, FarOut,
    FixedSizeValues, GeneratorOnTarget, HotSetInCache, NoDurability, OneLaunch, QuestionAnswer,
    QuestionMatters, Sensitive, Sensitivity, SequentialKeys, SingleThread, TooFewForPercentile,
    TooShortToSteady, WorkingSetInCache, WorkingSetInMemory,
};
pub use harness::{
    Allocates, CheckTheWork, Failed, Imprecise, NoSteadyState, NoWarmup, Noise, ResultUnchecked,
    ShortSamples, WorkingSet, WrongResult,
};
pub use load::{
    AgentWindow, DifferentSchedules, DisjointWindows, GeneratorBehind, InFlightBoundFull,
    LatencyFromGenerator, LoadErrors, NothingSucceeded, RateAboveCapacity, Retried, TlsNotVerified,
};
pub use machine::{
    Aslr, AssumedDrift, BestCaseAgrees, BusyMachine, ClockSource, CpuGovernor,
    DifferentFrequencyPolicy, DifferentLoad, DifferentMachine, MachineField, NotPinned,
    PairedByElimination, SeparateRuns, Smt, Turbo, UnlikeRecentRuns, Virtualized,
};
pub use recorded::RecordedFinding;
pub use samples::{
    ColdStart, ColdWarmup, Drift, FailedRuns, HighCv, Launches, ModeShare, Multimodal, Outliers,
    TooFewSamples, WideCi,
};

use crate::DiagnosticCode;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

macro_rules! findings {
    ($( $variant:ident, )*) => {
        /// A finding, serialised with its code as the tag (`{"code": "wide-ci", …}`);
        /// each variant is named as its `DiagnosticCode` and holds the struct of that name.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "code", rename_all = "kebab-case")]
        pub enum Finding {
            $( $variant($variant), )*
            /// Read from a document written before findings were typed (format 3 and
            /// older): its words as they were recorded.
            #[serde(skip)]
            Recorded(RecordedFinding),
            /// A code this plumb does not know (a newer release added it), with its
            /// fields kept as they were.
            #[serde(skip)]
            Unknown { code: String, fields: Map<String, Value> },
        }

        impl Finding {
            pub fn code(&self) -> DiagnosticCode {
                match self {
                    $( Finding::$variant(_) => DiagnosticCode::$variant, )*
                    Finding::Recorded(r) => r.code.clone(),
                    Finding::Unknown { code, .. } => DiagnosticCode::Unknown(code.clone()),
                }
            }
        }

        $(
            impl From<$variant> for Finding {
                fn from(f: $variant) -> Finding {
                    Finding::$variant(f)
                }
            }
        )*
    };
}

findings! {
    TooFewSamples,
    WideCi,
    HighCv,
    Outliers,
    Multimodal,
    Drift,
    ColdStart,
    ColdWarmup,
    FailedRuns,
    Launches,
    BranchBound,
    CacheCliff,
    SizeStep,
    TimeNotWork,
    WorkNotTime,
    MemoryBound,
    CountedTooMuch,
    Failed,
    NothingMeasured,
    WrongResult,
    ResultUnchecked,
    CheckTheWork,
    Allocates,
    NoSteadyState,
    NoWarmup,
    WorkingSet,
    Noise,
    ShortSamples,
    Imprecise,
    CpuGovernor,
    Turbo,
    BusyMachine,
    Virtualized,
    ClockSource,
    Smt,
    NotPinned,
    Aslr,
    NothingSucceeded,
    LoadErrors,
    GeneratorBehind,
    LatencyFromGenerator,
    RateAboveCapacity,
    InFlightBoundFull,
    Retried,
    TlsNotVerified,
    DisjointWindows,
    DifferentSchedules,
    DifferentMachine,
    DifferentLoad,
    DifferentFrequencyPolicy,
    BestCaseAgrees,
    PairedByElimination,
    SeparateRuns,
    UnlikeRecentRuns,
    WorkingSetInCache,
    WorkingSetInMemory,
    HotSetInCache,
    SequentialKeys,
    SingleThread,
    FixedSizeValues,
    NoDurability,
    CleanState,
    TooShortToSteady,
    ClosedLoopPercentile,
    TooFewForPercentile,
    ConcurrencyBelowLittle,
    GeneratorOnTarget,
    OneLaunch,
    DesignMismatch,
    QuestionMatters,
    Sensitivity,
}

/// One diagnostic of every code, with figures like a run's, for tests of whatever
/// writes or reads them.
#[doc(hidden)]
pub mod examples;
