//! A benchmark in the result model: its kind, samples, corrections, statistics and diagnostics.
use crate::quantity::ByteSize;
use crate::{
    Aggregate, Design, Diagnostic, FunctionInfo, LoadInfo, Metric, MetricInfo, ReportedSummary,
    Samples, SimulatedCounts, Source, Workload,
};
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

/// A fixed cost subtracted from every sample of one metric before statistics, with its
/// reason, e.g. the start-up time of the shell a command was run through.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Correction {
    pub metric: Metric,
    /// Per sample, in the metric's unit.
    pub value: f64,
    /// Standard error of `value`; it adds to the uncertainty of the result.
    pub std_err: f64,
    pub reason: String,
}

impl Correction {
    /// A correction estimated from repeated measurements of the fixed cost: their mean,
    /// with the standard error of that mean. `None` with fewer than two values.
    pub fn estimated(
        metric: Metric,
        values: &[f64],
        reason: impl Into<String>,
    ) -> Option<Correction> {
        if values.len() < 2 {
            return None;
        }
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let var = values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        Some(Correction {
            metric,
            value: mean,
            std_err: (var / n).sqrt(),
            reason: reason.into(),
        })
    }
}

/// Statistics of one metric per operation, in the metric's unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricStats {
    pub summary: Summary,
    /// Student-t interval of the mean over the replicates, at the run's confidence.
    pub mean_ci: Option<Interval>,
    /// Half-width of `mean_ci` (BenchmarkDotNet's "Error").
    pub error: Option<f64>,
    /// The standard error of the mean over the replicates (`error` over its t quantile,
    /// whose degrees of freedom are the replicates', not the samples'); absent in results
    /// written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub std_err: Option<f64>,
    /// Distribution-free (order-statistic) interval of the median, at least the run's
    /// confidence; absent when there are too few samples for that level.
    pub median_ci: Option<Interval>,
    /// The interval of the mean that holds the machine's drift between runs, where the
    /// history of this benchmark on this machine measured it; `mean_ci` is this run's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub between_runs: Option<BetweenRuns>,
}

impl MetricStats {
    /// The statistics of one value: its summary, no interval (a single figure, a test's).
    pub fn of_value(v: f64) -> Self {
        MetricStats {
            summary: Summary::of(&[v]).expect("one finite value summarises"),
            mean_ci: None,
            error: None,
            std_err: None,
            median_ci: None,
            between_runs: None,
        }
    }
}

/// This run's mean with an interval that holds the next run's: this run's standard error
/// and the drift between runs that the history of the benchmark on this machine measured
/// (its runs since its last change point), at the run's confidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BetweenRuns {
    /// At the run's confidence, Student's t with `runs - 1` degrees of freedom: the drift
    /// is estimated from that many runs.
    pub mean_ci: Interval,
    /// The relative standard deviation of one run's mean between runs, the runs' own
    /// errors taken out.
    #[serde(with = "crate::nan_as_null")]
    pub noise: f64,
    /// The runs that measured it, and the first one's commit (or run).
    pub runs: usize,
    pub since: String,
}

impl BetweenRuns {
    /// The fewest runs of a series' last level that measure its drift between runs.
    pub const FEWEST_RUNS: usize = plumb_stats::FEWEST_RUNS;
}

/// Written and read as `benchmark_json::RawBenchmark`: the kind beside its part, as JSON
/// has always had it; in memory the kind and its part are one `Workload`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "crate::benchmark_json::RawBenchmark")]
#[serde(into = "crate::benchmark_json::RawBenchmark")]
pub struct Benchmark {
    /// Unique within a document; how `compare` pairs benchmarks of two documents.
    pub name: String,
    /// Benchmarks of one group are compared with that group's baseline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// What was measured — a command, a function, a load test — with that kind's part.
    pub workload: Workload,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, String>,
    /// Bytes the benchmark declares it touches (its working set): what a sweep's points
    /// are placed by, against this machine's caches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_set: Option<ByteSize>,
    /// The workload the benchmark declares (keys, mix, sizes, concurrency, durability,
    /// what production looks like): what the design layer's red flags are checked on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub design: Option<Box<Design>>,
    /// The sweep this benchmark is a point of: benchmarks with the same series differ
    /// only in the swept parameter (a command as written with that parameter left as
    /// `{name}`, an in-process name without its `/param=value`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<String>,
    #[serde(default)]
    pub baseline: bool,
    /// What each metric in the samples is: unit, source, aggregation.
    #[serde(default)]
    pub metrics: BTreeMap<Metric, MetricInfo>,
    #[serde(default)]
    pub warmup: Samples,
    #[serde(default)]
    pub samples: Samples,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corrections: Vec<Correction>,
    /// Indices of samples left out of the statistics (only on request, e.g. dropped
    /// upper outliers); the samples themselves stay in `samples`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded: Vec<usize>,
    /// Statistics of each metric per operation, corrected; absent without samples.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<Metric, MetricStats>,
    /// An imported benchmark whose harness kept no samples: its own summary of each
    /// metric, as it gave it (plumb's `stats` are then absent).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reported: BTreeMap<Metric, ReportedSummary>,
    #[serde(default)]
    pub diagnostics: Vec<Diagnostic>,
    /// Counters from a simulator, taken in runs of their own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simulated: Option<SimulatedCounts>,
}

impl Benchmark {
    /// An empty benchmark of this kind; producers fill in the rest.
    pub fn new(name: impl Into<String>, kind: BenchmarkKind) -> Self {
        Benchmark {
            name: name.into(),
            group: None,
            workload: Workload::empty(kind),
            parameters: BTreeMap::new(),
            working_set: None,
            design: None,
            series: None,
            baseline: false,
            metrics: BTreeMap::new(),
            warmup: Samples::default(),
            samples: Samples::default(),
            corrections: Vec::new(),
            excluded: Vec::new(),
            stats: BTreeMap::new(),
            reported: BTreeMap::new(),
            diagnostics: Vec::new(),
            simulated: None,
        }
    }

    /// A benchmark whose samples are wall times, one operation each (tests, importers).
    pub fn of_wall_times(
        name: impl Into<String>,
        kind: BenchmarkKind,
        times_ns: impl IntoIterator<Item = u64>,
    ) -> Self {
        Self::of_wall_times_per(name, kind, times_ns.into_iter().map(|t| (1, t)))
    }

    /// A benchmark whose samples are (iterations, wall time) pairs.
    pub fn of_wall_times_per(
        name: impl Into<String>,
        kind: BenchmarkKind,
        samples: impl IntoIterator<Item = (u64, u64)>,
    ) -> Self {
        let mut b = Benchmark::new(name, kind);
        b.metrics
            .insert(Metric::WallTime, MetricInfo::measured(&Metric::WallTime));
        for (n, t) in samples {
            b.samples.push(n, &[(Metric::WallTime, t)]);
        }
        b
    }

    pub fn kind(&self) -> BenchmarkKind {
        self.workload.kind()
    }

    /// The command line of a command benchmark.
    pub fn command(&self) -> Option<&str> {
        match &self.workload {
            Workload::Command { command } => command.as_deref(),
            _ => None,
        }
    }

    /// What the harness recorded about a function benchmark.
    pub fn function(&self) -> Option<&FunctionInfo> {
        match &self.workload {
            Workload::Function(f) => f.as_deref(),
            _ => None,
        }
    }

    pub fn function_mut(&mut self) -> Option<&mut FunctionInfo> {
        match &mut self.workload {
            Workload::Function(f) => f.as_deref_mut(),
            _ => None,
        }
    }

    /// The result of a load benchmark.
    pub fn load(&self) -> Option<&LoadInfo> {
        match &self.workload {
            Workload::Load(l) => l.as_deref(),
            _ => None,
        }
    }

    pub fn load_mut(&mut self) -> Option<&mut LoadInfo> {
        match &mut self.workload {
            Workload::Load(l) => l.as_deref_mut(),
            _ => None,
        }
    }

    /// Makes this a command benchmark of `command`.
    pub fn set_command(&mut self, command: impl Into<String>) {
        self.workload = Workload::Command {
            command: Some(command.into()),
        };
    }

    /// Makes this a function benchmark with `info`.
    pub fn set_function(&mut self, info: FunctionInfo) {
        self.workload = Workload::Function(Some(Box::new(info)));
    }

    /// Makes this a load benchmark with `info`.
    pub fn set_load(&mut self, info: LoadInfo) {
        self.workload = Workload::Load(Some(Box::new(info)));
    }

    /// The correction subtracted from `metric`, if any.
    pub fn correction(&self, metric: &Metric) -> Option<&Correction> {
        self.corrections.iter().find(|c| &c.metric == metric)
    }

    /// An imported benchmark whose harness kept only its own summary: no samples.
    pub fn summary_only(&self) -> bool {
        self.samples.is_empty() && !self.reported.is_empty()
    }

    /// The harness's summary of `metric`, when it is all there is of it (no samples).
    pub fn reported_summary(&self, metric: &Metric) -> Option<&ReportedSummary> {
        self.reported
            .get(metric)
            .filter(|_| self.samples.is_empty())
    }

    /// Statistics of `metric`, when analysed.
    pub fn stats(&self, metric: &Metric) -> Option<&MetricStats> {
        self.stats.get(metric)
    }

    /// Statistics of the wall time per operation.
    pub fn time(&self) -> Option<&MetricStats> {
        self.stats(&Metric::WallTime)
    }

    /// `metric` per operation for each of `samples`, corrected: (value − correction) /
    /// iterations for a sum, the value itself for a peak. Empty when not measured.
    fn per_op_of(&self, samples: &Samples, metric: &Metric) -> Vec<f64> {
        let Some(values) = samples.values(metric) else {
            return Vec::new();
        };
        let c = self.correction(metric).map_or(0.0, |c| c.value);
        match self.metrics.get(metric).map(|m| m.aggregate) {
            Some(Aggregate::Peak) => values.iter().map(|&v| v as f64).collect(),
            _ => values
                .iter()
                .zip(samples.iterations())
                .map(|(&v, &n)| (v as f64 - c) / n as f64)
                .collect(),
        }
    }

    /// `metric` per operation, corrected, for every sample in run order.
    pub fn per_op(&self, metric: &Metric) -> Vec<f64> {
        self.per_op_of(&self.samples, metric)
    }

    /// `metric` per operation of the warm-up samples, corrected like `per_op`.
    pub fn warmup_per_op(&self, metric: &Metric) -> Vec<f64> {
        self.per_op_of(&self.warmup, metric)
    }

    /// Whether each sample enters the statistics (not in `excluded`): one pass, so that
    /// dropping many outliers of many samples stays linear.
    fn kept(&self) -> Vec<bool> {
        let mut keep = vec![true; self.samples.len()];
        for &i in &self.excluded {
            if let Some(k) = keep.get_mut(i) {
                *k = false;
            }
        }
        keep
    }

    /// What enters the statistics: `per_op` without the `excluded` samples.
    pub fn analysed(&self, metric: &Metric) -> Vec<f64> {
        let values = self.per_op(metric);
        if self.excluded.is_empty() {
            return values;
        }
        values
            .into_iter()
            .zip(self.kept())
            .filter_map(|(v, keep)| keep.then_some(v))
            .collect()
    }

    /// Wall time per operation, ns, in run order, corrected.
    pub fn times_ns(&self) -> Vec<f64> {
        self.per_op(&Metric::WallTime)
    }

    /// Wall time per operation that enters the statistics.
    pub fn analysed_times_ns(&self) -> Vec<f64> {
        self.analysed(&Metric::WallTime)
    }

    /// Mean of `metric` per op in each launch (`function.launch_sample_counts`), when
    /// there were at least two; excluded samples are left out.
    pub fn launch_means(&self, metric: &Metric) -> Option<Vec<f64>> {
        let counts = &self.function()?.launch_sample_counts;
        if counts.len() < 2 || counts.iter().sum::<usize>() != self.samples.len() {
            return None;
        }
        let values = self.per_op(metric);
        if values.len() != self.samples.len() {
            return None;
        }
        let keep = self.kept();
        let mut means = Vec::with_capacity(counts.len());
        let mut start = 0;
        for &n in counts {
            let kept: Vec<f64> = (start..start + n)
                .filter(|&i| keep[i])
                .map(|i| values[i])
                .collect();
            start += n;
            if kept.is_empty() {
                return None;
            }
            means.push(kept.iter().sum::<f64>() / kept.len() as f64);
        }
        Some(means)
    }

    /// Every metric in the samples and the warm-up is declared in `metrics`, so its unit
    /// and aggregation are known (checked when a document is read).
    pub fn check_metrics(&self) -> Result<(), crate::Invalid> {
        let undeclared = self
            .samples
            .metrics()
            .chain(self.warmup.metrics())
            .find(|m| !self.metrics.contains_key(m));
        if let Some(m) = undeclared {
            return Err(crate::Invalid::Undeclared {
                benchmark: Some(self.name.clone()),
                metric: m.to_string(),
                simulated: false,
            });
        }
        match &self.simulated {
            Some(s) => s.check_metrics().map_err(|e| match e {
                crate::Invalid::Undeclared {
                    metric, simulated, ..
                } => crate::Invalid::Undeclared {
                    benchmark: Some(self.name.clone()),
                    metric,
                    simulated,
                },
                other => other,
            }),
            None => Ok(()),
        }
    }

    /// The mean per operation of a counter and its source: the timed runs' counters
    /// (hardware or software) first, else the simulated runs'. Needs statistics.
    pub fn counted_mean(&self, metric: &Metric) -> Option<(f64, Source)> {
        let counted = self
            .metrics
            .get(metric)
            .filter(|i| matches!(i.source, Source::HardwareCounter | Source::SoftwareCounter))
            .and_then(|i| Some((self.stats(metric)?.summary.mean, i.source)));
        counted.or_else(|| {
            let sim = self.simulated.as_ref()?;
            let info = sim
                .metrics
                .get(metric)
                .filter(|i| i.source == Source::Simulated)?;
            Some((sim.stats.get(metric)?.summary.mean, info.source))
        })
    }

    /// `numerator / denominator` of two counters' means from one source (IPC, a miss
    /// rate); `None` when either is missing or the denominator is zero.
    pub fn counter_ratio(&self, numerator: &Metric, denominator: &Metric) -> Option<f64> {
        let (n, a) = self.counted_mean(numerator)?;
        let (d, b) = self.counted_mean(denominator)?;
        (a == b && d > 0.0).then(|| n / d)
    }

    /// The metrics measured for this benchmark, wall time first.
    pub fn measured_metrics(&self) -> impl Iterator<Item = &Metric> {
        self.metrics.keys()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Exit;

    #[test]
    fn per_operation_values_apply_correction_iterations_and_aggregation() {
        let mut b = Benchmark::new("x", crate::BenchmarkKind::Function);
        b.metrics
            .insert(Metric::WallTime, MetricInfo::measured(&Metric::WallTime));
        b.metrics
            .insert(Metric::PeakRss, MetricInfo::measured(&Metric::PeakRss));
        b.samples
            .push(1, &[(Metric::WallTime, 1000), (Metric::PeakRss, 4096)]);
        b.samples
            .push(2, &[(Metric::WallTime, 1100), (Metric::PeakRss, 8192)]);
        b.corrections.push(Correction {
            metric: Metric::WallTime,
            value: 100.0,
            std_err: 1.0,
            reason: "shell".into(),
        });
        assert_eq!(b.times_ns(), vec![900.0, 500.0]);
        // A peak is a level of the whole sample: neither corrected nor divided.
        assert_eq!(b.per_op(&Metric::PeakRss), vec![4096.0, 8192.0]);
        assert!(b.per_op(&Metric::Instructions).is_empty());
        b.excluded = vec![0];
        assert_eq!(b.analysed_times_ns(), vec![500.0]);
    }

    #[test]
    fn a_command_runs_exit_is_kept() {
        let mut s = Samples::default();
        s.push_run(1, &[(Metric::WallTime, 5)], Exit::Code(3));
        assert_eq!(s.exits(), [Exit::Code(3)]);
    }
}
