//! The plumb result model: one versioned JSON document that every producer (command
//! runner, in-process harness, load generator) writes and every consumer (compare,
//! reports, history) reads. The format is described in `docs/result-format.md`.

mod benchmark;
mod comparison;
mod comparison_document;
mod diagnostic;
mod document;
mod environment;
mod error;
mod latency;
mod nan_as_null;
pub mod quantity;

pub use benchmark::{
    Benchmark, BenchmarkKind, Correction, FunctionInfo, LatencyDistribution, LoadInfo,
    PrecisionStop, Sample, TimeStats, TimelineRow,
};
pub use comparison::{Comparison, Verdict, VerdictReason};
pub use comparison_document::{
    ComparedResult, ComparisonDocument, LoadComparison, PercentileComparison, COMPARISON_FORMAT,
    COMPARISON_FORMAT_VERSION,
};
pub use diagnostic::{Diagnostic, DiagnosticCode, Severity};
pub use document::{
    ClockInfo, Invocation, ResultDocument, RunStatus, Settings, Tool, FORMAT, FORMAT_VERSION,
};
pub use environment::{CacheLevel, Environment};
pub use error::ModelError;
pub use latency::LATENCY_PERCENTILES;
pub use plumb_stats::{Interval, Summary};
