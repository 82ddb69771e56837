use crate::Diagnostic;
use plumb_stats::{Interval, Summary};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BenchmarkKind {
    /// A whole process, timed from spawn to exit.
    Command,
    /// A function timed in-process.
    Function,
    /// Latency under load (an HTTP target or a simulation).
    Load,
}

/// One timed measurement, kept raw and in run order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// Wall-clock time of the whole sample, in nanoseconds, as measured (before any
    /// correction the benchmark records).
    pub wall_ns: u64,
    /// Operations timed together in this sample; per-operation time is wall_ns / iterations.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub iterations: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sys_ns: Option<u64>,
    /// Peak resident set size of the child, KiB (`ru_maxrss`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rss_kib: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Set when the process was killed by a signal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
}

fn yes() -> bool {
    true
}
fn one() -> u64 {
    1
}
fn is_one(n: &u64) -> bool {
    *n == 1
}

impl Sample {
    pub fn wall(wall_ns: u64) -> Self {
        Sample {
            wall_ns,
            iterations: 1,
            user_ns: None,
            sys_ns: None,
            max_rss_kib: None,
            exit_code: None,
            signal: None,
        }
    }
}

/// A fixed cost subtracted from every sample before statistics, with its reason, e.g. the
/// start-up time of the shell a command was run through.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Correction {
    pub ns: f64,
    /// Standard error of the correction; it adds to the uncertainty of the result.
    pub std_err_ns: f64,
    pub reason: String,
}

impl Correction {
    /// A correction estimated from repeated measurements of the fixed cost: their mean,
    /// with the standard error of that mean. `None` with fewer than two values.
    pub fn estimated(values_ns: &[f64], reason: impl Into<String>) -> Option<Correction> {
        if values_ns.len() < 2 {
            return None;
        }
        let n = values_ns.len() as f64;
        let mean = values_ns.iter().sum::<f64>() / n;
        let var = values_ns.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        Some(Correction {
            ns: mean,
            std_err_ns: (var / n).sqrt(),
            reason: reason.into(),
        })
    }
}

/// Statistics of the per-operation time, in nanoseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimeStats {
    pub summary: Summary,
    /// Student-t interval of the mean at the run's confidence level.
    pub mean_ci: Option<Interval>,
    /// Half-width of `mean_ci` (BenchmarkDotNet's "Error").
    pub error: Option<f64>,
    /// Distribution-free (order-statistic) interval of the median, at least the run's
    /// confidence; absent when there are too few samples for that level.
    pub median_ci: Option<Interval>,
}

/// Why sampling for a precision target stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PrecisionStop {
    /// The mean's interval met the target.
    TargetMet,
    /// The most time for samples ran out first.
    TimeCap,
    /// The most samples the buffer holds came first.
    SampleCap,
}

/// What the in-process harness knows about a function benchmark beyond its times.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FunctionInfo {
    /// Operations per invocation of the routine (per-op time = sample time / iterations /
    /// ops_per_iter is already applied: `iterations` counts operations).
    #[serde(default = "one")]
    pub ops_per_iter: u64,
    /// Heap allocations and bytes per operation, when the counting allocator is installed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocs_per_op: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes_per_op: Option<f64>,
    /// Whether warm-up ran (it can be turned off to see cold behaviour), whether it
    /// reached a steady state before the time cap, and how long it took.
    #[serde(default = "yes")]
    pub warmup: bool,
    pub steady_state: bool,
    pub warmup_ns: u64,
    /// Per-operation time of an empty body at the same batch sizes: the loop and clock
    /// overhead, in ns. Subtracted from the samples only when `overhead_subtracted`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty_body_ns: Option<f64>,
    /// The empty-body samples behind `empty_body_ns`, per op, for the dead-code check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub empty_body_samples_ns: Vec<f64>,
    #[serde(default)]
    pub overhead_subtracted: bool,
    /// The precision sampling went on for: a relative half-width of the mean's interval
    /// (by batch means, at the run's confidence). Absent when sampling ran for a fixed time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_error: Option<f64>,
    /// The relative half-width of that interval when sampling stopped: at most
    /// `target_error` unless a cap came first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_means_error: Option<f64>,
    /// Why sampling stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision_stop: Option<PrecisionStop>,
    /// Bytes the benchmark's parameter declares it touches (its working set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_set_bytes: Option<u64>,
    /// The benchmark panicked or failed its result check; its samples may be partial.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// The `Debug` form of one result of the routine, when it was checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// With `--launches N`: how many of `samples` (in order) each fresh process took.
    /// Samples of one launch share its code layout and address-space randomisation, so
    /// the launch, not the sample, is the unit of replication.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub launch_sample_counts: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Benchmark {
    /// Unique within a document; how `compare` pairs benchmarks of two documents.
    pub name: String,
    /// Benchmarks of one group are compared with that group's baseline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    pub kind: BenchmarkKind,
    /// The command line as given (commands only), after parameter substitution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, String>,
    #[serde(default)]
    pub baseline: bool,
    #[serde(default)]
    pub warmup: Vec<Sample>,
    pub samples: Vec<Sample>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correction: Option<Correction>,
    /// Indices of samples left out of the statistics (only on request, e.g. dropped
    /// upper outliers); the samples themselves stay in `samples`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded: Vec<usize>,
    /// Statistics of the corrected per-operation times; absent with fewer than one sample.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<TimeStats>,
    #[serde(default)]
    pub diagnostics: Vec<Diagnostic>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<FunctionInfo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<LoadInfo>,
}

/// A latency distribution from a load test: the headline figures, and the whole
/// HdrHistogram (V2 deflate serialisation, base64) so results merge losslessly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatencyDistribution {
    pub count: u64,
    /// `p50`, `p90`, `p99`, `p99.9`, `p99.99` → µs.
    pub percentiles_us: BTreeMap<String, f64>,
    pub max_us: f64,
    pub mean_us: f64,
    pub hdr_base64: String,
}

/// One second of a load test (by due time).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimelineRow {
    pub second: u64,
    pub ok: u64,
    pub errors: u64,
    /// Null after a merge: per-second percentiles of several agents cannot be combined
    /// from their summaries (the `.hlog` interval logs can).
    #[serde(with = "crate::nan_as_null")]
    pub p50_us: f64,
    #[serde(with = "crate::nan_as_null")]
    pub p99_us: f64,
    pub max_us: f64,
}

/// What a load test measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadInfo {
    /// `open` (latency from the due time) or `closed` (back to back: not user latency).
    pub mode: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_rate: Option<f64>,
    pub achieved_rate: f64,
    pub duration_s: f64,
    pub ok: u64,
    #[serde(default)]
    pub errors: BTreeMap<String, u64>,
    /// Open loop: the bound on requests in flight; closed loop: the number of clients.
    pub concurrency: usize,
    /// TCP connections opened (more than `concurrency` when the server closes them).
    pub connections_opened: usize,
    /// Little's law, from the achieved rate and the mean latency.
    pub mean_in_flight: f64,
    /// From the due time (open loop) or the send (closed loop).
    pub latency: LatencyDistribution,
    /// From the actual send.
    pub service: LatencyDistribution,
    /// Open loop: how late the generator dispatched against its schedule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_lateness: Option<LatencyDistribution>,
    #[serde(default)]
    pub timeline: Vec<TimelineRow>,
}

impl Benchmark {
    /// An empty benchmark of this kind; producers fill in the rest.
    pub fn new(name: impl Into<String>, kind: BenchmarkKind) -> Self {
        Benchmark {
            name: name.into(),
            group: None,
            kind,
            command: None,
            parameters: BTreeMap::new(),
            baseline: false,
            warmup: Vec::new(),
            samples: Vec::new(),
            correction: None,
            excluded: Vec::new(),
            time: None,
            diagnostics: Vec::new(),
            function: None,
            load: None,
        }
    }

    /// Per-operation times in nanoseconds, in run order, with the correction applied.
    pub fn times_ns(&self) -> Vec<f64> {
        let c = self.correction.as_ref().map_or(0.0, |c| c.ns);
        self.samples
            .iter()
            .map(|s| (s.wall_ns as f64 - c) / s.iterations as f64)
            .collect()
    }

    /// Per-operation warm-up times in ns, corrected like `times_ns`.
    pub fn warmup_times_ns(&self) -> Vec<f64> {
        let c = self.correction.as_ref().map_or(0.0, |c| c.ns);
        self.warmup
            .iter()
            .map(|s| (s.wall_ns as f64 - c) / s.iterations as f64)
            .collect()
    }

    /// Mean per-op time of each launch (`function.launch_sample_counts`), when there were
    /// at least two; excluded samples are left out.
    pub fn launch_means_ns(&self) -> Option<Vec<f64>> {
        let counts = &self.function.as_ref()?.launch_sample_counts;
        if counts.len() < 2 || counts.iter().sum::<usize>() != self.samples.len() {
            return None;
        }
        let times = self.times_ns();
        let mut means = Vec::with_capacity(counts.len());
        let mut start = 0;
        for &n in counts {
            let kept: Vec<f64> = (start..start + n)
                .filter(|i| !self.excluded.contains(i))
                .map(|i| times[i])
                .collect();
            start += n;
            if kept.is_empty() {
                return None;
            }
            means.push(kept.iter().sum::<f64>() / kept.len() as f64);
        }
        Some(means)
    }

    /// Per-operation times that enter the statistics: `times_ns` without `excluded`.
    pub fn analysed_times_ns(&self) -> Vec<f64> {
        self.times_ns()
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !self.excluded.contains(i))
            .map(|(_, t)| t)
            .collect()
    }
}
