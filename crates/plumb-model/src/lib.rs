//! The plumb result model: one versioned JSON document that every producer (command
//! runner, in-process harness, load generator) writes and every consumer (compare,
//! reports, history) reads. The format is described in `docs/result-format.md`.

mod amount;
pub mod bench_child;
mod benchmark;
mod benchmark_json;
mod comparison;
mod comparison_document;
mod design;
mod diagnostic;
mod document;
mod environment;
mod error;
pub mod finding;
pub mod format;
mod function_info;
mod gate;
mod insitu;
mod invalid;
mod latency;
mod load_info;
mod metric;
#[cfg(feature = "read")]
mod migrate;
mod nan_as_null;
mod profile;
pub mod quantity;
mod question;
pub mod redact;
mod reported;
mod revisions;
mod samples;
mod settings;
mod settle;
mod simulated_counts;
mod simulation;
pub mod sweep;
mod workload;

pub use amount::Amount;
pub use benchmark::{Benchmark, BenchmarkKind, BetweenRuns, Correction, MetricStats};
pub use comparison::{Comparison, CounterChange, SummaryBasis, Verdict, VerdictReason};
pub use comparison_document::{
    ComparedResult, ComparisonDocument, LoadComparison, PercentileComparison, COMPARISON_FORMAT,
    COMPARISON_FORMAT_VERSION,
};
#[cfg(feature = "read")]
pub use design::parse_workload_file;
pub use design::{
    ycsb_core, Arrival, Design, DesignError, Durability, GeneratorPlace, KeyDistribution, Mix,
    SizeDistribution, StateBetweenRuns, WorkloadFile,
};
pub use diagnostic::{Diagnostic, DiagnosticCode, Severity};
pub use document::{
    ClockInfo, Invocation, RecordedCommit, ResultDocument, RunStatus, Tool, FORMAT, FORMAT_VERSION,
    OLDEST_FORMAT_VERSION,
};
pub use environment::{
    CacheLevel, CounterAvailability, Environment, MissingCounter, MissingWhy, TlbLevel,
};
pub use error::ModelError;
pub use finding::Finding;
pub use function_info::{FunctionInfo, PrecisionStop};
pub use gate::{Gate, NoCycles, UnknownGate};
pub use insitu::{InSituRegion, InSituSettings};
pub use invalid::Invalid;
pub use latency::LATENCY_PERCENTILES;
#[cfg(feature = "histograms")]
pub use latency::{decode_histogram, encode_histogram, value_at_percentile};
pub use load_info::{
    ConnectionSetup, LatencyDistribution, LoadInfo, LoadRun, MeasuredWindow, SlotWaits, TimelineRow,
};
pub use metric::{Aggregate, Metric, MetricInfo, Source, Unit};
pub use plumb_stats::{Interval, Summary};
pub use profile::{
    AllocationProfile, AllocationSite, AmdahlCase, AmdahlPrediction, AnnotatedLine, Annotation,
    CallGraph, FoldedStack, Profile, ProfileSettings, ProfiledFunction, ShareChange,
};
pub use question::Question;
pub use reported::{Carried, ReportedInterval, ReportedStatistic, ReportedSummary};
pub use revisions::{
    BenchmarkLooks, Ending, Look, Pairing, Revision, Revisions, SequentialDesignRecord,
    SequentialRounds,
};
pub use samples::{Exit, Samples};
pub use settings::{
    AgentClock, AgentShare, CommandSettings, CoordinatedAgent, Coordination, InProcessSettings,
    LoadMode, LoadSettings, MergedSettings, MixEntry, MixSettings, ProducerSettings, RoundOrder,
    Settings, TlsSettings,
};
pub use settle::{Settle, SettleWith};
pub use simulated_counts::{SimulatedCache, SimulatedCaches, SimulatedCounts};
pub use simulation::{SimulateSettings, SimulatedClient, SimulatedStall, Simulation};
pub use workload::Workload;
