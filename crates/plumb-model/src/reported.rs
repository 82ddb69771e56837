//! What another harness gave plumb of a benchmark — its raw samples, its samples by
//! launch or fork, or only its own summary — and that summary, kept as the harness wrote
//! it so that plumb judges only what a summary supports.
use crate::quantity::Confidence;
use crate::Benchmark;
use serde::{Deserialize, Serialize};

/// Which statistic a reported figure is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReportedStatistic {
    Mean,
    Median,
    /// The harness did not say (Bencher Metric Format's `value` and its bounds).
    Unknown,
}

/// An interval the harness gave.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ReportedInterval {
    /// The statistic it bounds.
    pub of: ReportedStatistic,
    pub lo: f64,
    pub hi: f64,
    /// Its confidence level; absent when the harness did not give one (such bounds are
    /// shown, never judged by).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<Confidence>,
}

/// A harness's own summary of one metric of a benchmark whose samples it did not keep,
/// per operation in the metric's unit. Only what the harness wrote is filled in.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ReportedSummary {
    /// How many samples the harness took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median: Option<f64>,
    /// Standard deviation of its samples (divisor n − 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub std_dev: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// A figure given without saying which statistic it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<ReportedInterval>,
}

impl ReportedSummary {
    /// The figure that stands for the benchmark: the mean, else the median, else the
    /// value of unknown kind.
    pub fn centre(&self) -> Option<(ReportedStatistic, f64)> {
        (self.mean.map(|m| (ReportedStatistic::Mean, m)))
            .or(self.median.map(|m| (ReportedStatistic::Median, m)))
            .or(self.value.map(|v| (ReportedStatistic::Unknown, v)))
    }
}

/// What a benchmark's figures rest on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carried {
    /// Samples taken in `launches` fresh processes (or JVM forks): the launches are the
    /// replicates.
    Launches {
        launches: usize,
        samples: usize,
    },
    /// Samples, all of one process or each its own.
    Samples(usize),
    /// Only the harness's own summary.
    Summary,
    Nothing,
}

impl Carried {
    pub fn of(b: &Benchmark) -> Carried {
        let samples = b.samples.len();
        let launches = b.function().map_or(0, |f| f.launch_sample_counts.len());
        if samples > 0 && launches >= 2 {
            Carried::Launches { launches, samples }
        } else if samples > 0 {
            Carried::Samples(samples)
        } else if b.summary_only() {
            Carried::Summary
        } else {
            Carried::Nothing
        }
    }

    /// As said beside an imported benchmark: "12 samples", "30 samples in 3 launches",
    /// "a summary only".
    pub fn describe(self) -> String {
        match self {
            Carried::Launches { launches, samples } => {
                format!("{samples} samples in {launches} launches")
            }
            Carried::Samples(1) => "1 sample".into(),
            Carried::Samples(n) => format!("{n} samples"),
            Carried::Summary => "a summary only".into(),
            Carried::Nothing => "nothing measured".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BenchmarkKind, Metric};

    #[test]
    fn what_a_benchmark_carried() {
        let mut b = Benchmark::new("x", BenchmarkKind::Function);
        assert_eq!(Carried::of(&b), Carried::Nothing);
        b.reported.insert(
            Metric::WallTime,
            ReportedSummary {
                median: Some(5.0),
                value: Some(6.0),
                ..ReportedSummary::default()
            },
        );
        assert_eq!(Carried::of(&b).describe(), "a summary only");
        assert_eq!(
            b.reported[&Metric::WallTime].centre(),
            Some((ReportedStatistic::Median, 5.0))
        );
        let b = Benchmark::of_wall_times("y", BenchmarkKind::Function, [1, 2, 3]);
        assert_eq!(Carried::of(&b).describe(), "3 samples");
    }

    #[test]
    fn a_summary_round_trips_with_only_what_was_given() {
        let s = ReportedSummary {
            n: Some(100),
            mean: Some(12.5),
            interval: Some(ReportedInterval {
                of: ReportedStatistic::Mean,
                lo: 12.0,
                hi: 13.0,
                level: Confidence::new(0.95),
            }),
            ..ReportedSummary::default()
        };
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(
            json,
            r#"{"n":100,"mean":12.5,"interval":{"of":"mean","lo":12.0,"hi":13.0,"level":0.95}}"#
        );
        assert_eq!(serde_json::from_str::<ReportedSummary>(&json).unwrap(), s);
    }
}
