//! The plumb result model: one versioned JSON document that every producer (command
//! runner, in-process harness, load generator) writes and every consumer (compare,
//! reports, history) reads. The format is described in `docs/result-format.md`.

mod benchmark;
mod comparison;
mod diagnostic;
mod document;
mod environment;
mod error;
mod latency;
mod nan_as_null;
pub mod quantity;

pub use benchmark::{
    Benchmark, BenchmarkKind, Correction, FunctionInfo, LatencyDistribution, LoadInfo, Sample,
    TimeStats, TimelineRow,
};
pub use comparison::{Comparison, Verdict};
pub use diagnostic::{Diagnostic, Severity};
pub use document::{
    ClockInfo, Invocation, ResultDocument, RunStatus, Settings, Tool, FORMAT, FORMAT_VERSION,
};
pub use environment::{CacheLevel, Environment};
pub use error::ModelError;
pub use latency::LATENCY_PERCENTILES;
