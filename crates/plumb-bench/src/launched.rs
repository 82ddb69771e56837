//! What the parent reads of a launch's result: of each benchmark only what
//! `launches::merge` joins (its samples and warm-up, metrics, corrections, the function's
//! record, the declared design and working set), read straight from the document the
//! child wrote. The rest (findings, statistics) is skipped unread: the harness builds no
//! reader for the whole result model (plumb-model's `read` feature), only for these
//! parts, which keeps its first build short.
use plumb_model::quantity::ByteSize;
use plumb_model::{
    Benchmark, BenchmarkKind, Correction, Design, FunctionInfo, Metric, MetricInfo, Samples,
};
use serde::Deserialize;
use std::collections::BTreeMap;

/// A launch's result document, as far as the parent reads it.
#[derive(Deserialize)]
pub(crate) struct LaunchDoc {
    benchmarks: Vec<LaunchBench>,
}

/// One benchmark of a launch's result, as far as the parent reads it (the names are the
/// document's: `benchmark_json.rs`).
#[derive(Deserialize)]
struct LaunchBench {
    name: String,
    #[serde(default)]
    working_set: Option<ByteSize>,
    #[serde(default)]
    design: Option<Box<Design>>,
    #[serde(default)]
    series: Option<String>,
    #[serde(default)]
    metrics: BTreeMap<Metric, MetricInfo>,
    #[serde(default)]
    warmup: Samples,
    #[serde(default)]
    samples: Samples,
    #[serde(default)]
    corrections: Vec<Correction>,
    #[serde(default)]
    function: Option<FunctionInfo>,
}

impl LaunchDoc {
    /// The launch's result as written by this same binary, or why not.
    pub(crate) fn read(text: &str) -> Result<LaunchDoc, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The benchmark named `name`, taken out as a benchmark of the model (its samples
    /// moved, not copied).
    pub(crate) fn take(&mut self, name: &str) -> Option<Benchmark> {
        let at = self.benchmarks.iter().position(|b| b.name == name)?;
        let l = self.benchmarks.swap_remove(at);
        let mut b = Benchmark::new(l.name, BenchmarkKind::Function);
        b.working_set = l.working_set;
        b.design = l.design;
        b.series = l.series;
        b.metrics = l.metrics;
        b.warmup = l.warmup;
        b.samples = l.samples;
        b.corrections = l.corrections;
        b.set_function(l.function.unwrap_or_default());
        Some(b)
    }
}
