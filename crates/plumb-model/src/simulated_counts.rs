//! Counts from a simulator (valgrind's cachegrind), kept apart from the timed samples.
//! A simulated run is tens of times slower than a timed one and its counts are
//! deterministic, so it is taken separately, once or a few times, after the timed runs:
//! its samples are not the timed samples' and cannot share their columns.

use crate::quantity::ByteSize;
use crate::{Metric, MetricInfo, MetricStats, Samples};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One simulated cache as the simulator was given it (from the machine record).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimulatedCache {
    pub size: ByteSize,
    pub ways: u32,
    pub line_size: ByteSize,
}

/// The caches a simulation modelled: level-1 instruction and data, and the last level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimulatedCaches {
    pub i1: SimulatedCache,
    pub d1: SimulatedCache,
    pub ll: SimulatedCache,
}

/// One benchmark's simulated counters: how they were taken and the runs' counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimulatedCounts {
    /// The simulator, e.g. "cachegrind (valgrind-3.19.0)".
    pub tool: String,
    pub caches: Option<SimulatedCaches>,
    /// What each metric of `samples` is; the counts' source is `simulated`, the wall
    /// time of a simulated run is `measured` (it says how much slower simulation is).
    #[serde(default)]
    pub metrics: BTreeMap<Metric, MetricInfo>,
    /// One sample per simulated run; its iterations are the operations the run covered.
    #[serde(default)]
    pub samples: Samples,
    /// Statistics of each metric per operation.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<Metric, MetricStats>,
    /// Why there are no (or fewer) simulated runs: valgrind missing, the budget, the
    /// command failing under the simulator, an interruption.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_simulated: Option<String>,
}

impl SimulatedCounts {
    pub fn new(tool: impl Into<String>, caches: Option<SimulatedCaches>) -> Self {
        SimulatedCounts {
            tool: tool.into(),
            caches,
            metrics: BTreeMap::new(),
            samples: Samples::default(),
            stats: BTreeMap::new(),
            not_simulated: None,
        }
    }

    /// `metric` per operation for each simulated run.
    pub fn per_op(&self, metric: &Metric) -> Vec<f64> {
        let Some(values) = self.samples.values(metric) else {
            return Vec::new();
        };
        values
            .iter()
            .zip(self.samples.iterations())
            .map(|(&v, &n)| v as f64 / n as f64)
            .collect()
    }

    /// Every metric in the samples is declared in `metrics`.
    pub fn check_metrics(&self) -> Result<(), crate::Invalid> {
        match self
            .samples
            .metrics()
            .find(|m| !self.metrics.contains_key(m))
        {
            Some(m) => Err(crate::Invalid::Undeclared {
                benchmark: None,
                metric: m.to_string(),
                simulated: true,
            }),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Source;

    #[test]
    fn counts_per_operation_divide_by_the_runs_operations() {
        let mut s = SimulatedCounts::new("cachegrind", None);
        s.metrics.insert(
            Metric::Instructions,
            MetricInfo::known(&Metric::Instructions, Source::Simulated),
        );
        s.samples.push(1000, &[(Metric::Instructions, 5_000)]);
        s.samples.push(2000, &[(Metric::Instructions, 9_000)]);
        assert_eq!(s.per_op(&Metric::Instructions), vec![5.0, 4.5]);
        assert!(s.per_op(&Metric::DataReads).is_empty());
        assert!(s.check_metrics().is_ok());
        s.samples = Samples::default();
        s.samples.push(1, &[(Metric::DataReads, 1)]);
        assert!(s
            .check_metrics()
            .unwrap_err()
            .to_string()
            .contains("data-reads"));
    }
}
