//! What a result adds to the history: a point per benchmark and metric, each with the
//! summary a series needs (n, mean, median, the mean's interval and standard error). A
//! command's or function's metrics come from its statistics; a load test's from its
//! latency percentiles (p50, p99, p99.9), over its runs when it was repeated.
use crate::{MachineFingerprint, Point, SeriesKey};
use plumb_model::{Benchmark, LoadInfo, MetricStats, ResultDocument, Source, Unit};

/// The load percentiles a history keeps, and the metric each becomes.
const LOAD_PERCENTILES: [(&str, &str); 3] = [
    ("p50", "latency-p50"),
    ("p99", "latency-p99"),
    ("p99.9", "latency-p99.9"),
];

/// Each benchmark's measured metrics as points, with the series they belong to.
pub fn points_of(doc: &ResultDocument, machine: &MachineFingerprint) -> Vec<(SeriesKey, Point)> {
    let level = doc.settings.confidence.get();
    let mut out = Vec::new();
    for b in &doc.benchmarks {
        let key = |metric: &str| SeriesKey {
            benchmark: b.name.clone(),
            parameters: b.parameters.clone(),
            metric: metric.to_string(),
            machine: machine.clone(),
        };
        match b.load() {
            Some(load) => {
                for (label, metric) in LOAD_PERCENTILES {
                    if let Some(p) = load_point(load, label, level) {
                        out.push((key(metric), p));
                    }
                }
            }
            None => out.extend(measured(b, level).into_iter().map(|(m, p)| (key(&m), p))),
        }
    }
    out
}

/// A command's or function's metrics, from their statistics; an imported benchmark that
/// kept only its harness's summary, from that summary where it gives both a mean and a
/// median (a series of one but not the other would mix statistics). Simulated counts are
/// series of their own, `simulated:METRIC` (`simulated:estimated-cycles`), never mixed
/// with the CPU's counts of the same name; a simulated run's own wall time is not kept.
fn measured(b: &Benchmark, level: f64) -> Vec<(String, Point)> {
    if b.summary_only() {
        return summary_points(b);
    }
    let timed = (b.stats.iter()).map(|(metric, stats)| {
        let unit = b.metrics.get(metric).map_or(Unit::Nanoseconds, |i| i.unit);
        (metric.to_string(), stat_point(stats, unit, level))
    });
    let simulated = b.simulated.iter().flat_map(|sim| {
        (sim.stats.iter())
            .filter_map(|(metric, stats)| {
                let info = sim.metrics.get(metric)?;
                (info.source == Source::Simulated).then_some((metric, info.unit, stats))
            })
            .map(move |(metric, unit, stats)| {
                (
                    format!("simulated:{metric}"),
                    stat_point(stats, unit, level),
                )
            })
    });
    timed.chain(simulated).collect()
}

/// A metric's statistics as a point: n, mean, median, the mean's interval and its
/// standard error.
fn stat_point(stats: &MetricStats, unit: Unit, level: f64) -> Point {
    let n = stats.summary.n;
    // Kept by the analysis over the replicates (launches, batches); a result written
    // before it was kept: the interval's half-width over t of its samples.
    let stderr = stats.std_err.or_else(|| {
        stats
            .mean_ci
            .filter(|_| n >= 2)
            .map(|ci| ci.half_width() / plumb_stats::t_quantile(0.5 + level / 2.0, n as f64 - 1.0))
    });
    Point {
        n: n as u64,
        mean: stats.summary.mean,
        median: stats.summary.median,
        interval: stats.mean_ci.map(|ci| (ci.lo, ci.hi)),
        stderr,
        unit,
    }
}

/// The benchmarks of `doc` that give no point: imported with a harness's summary that
/// has no mean and median (kept with the run, in no series).
pub fn outside_series(doc: &ResultDocument) -> Vec<&str> {
    (doc.benchmarks.iter())
        .filter(|b| b.summary_only() && summary_points(b).is_empty())
        .map(|b| b.name.as_str())
        .collect()
}

/// The points of a benchmark that has only its harness's summary, one a metric whose
/// summary gives them.
fn summary_points(b: &Benchmark) -> Vec<(String, Point)> {
    (b.reported.iter())
        .filter_map(|(metric, r)| {
            let unit = b.metrics.get(metric).map_or(Unit::Nanoseconds, |i| i.unit);
            Some((metric.to_string(), summary_point(r, unit)?))
        })
        .collect()
}

/// A harness's summary as a point: its mean and median, the standard error from its
/// deviation and count; its own interval (at its level, not the result's) is not kept.
fn summary_point(r: &plumb_model::ReportedSummary, unit: Unit) -> Option<Point> {
    let (mean, median) = (r.mean?, r.median?);
    let n = r.n.unwrap_or(1);
    Some(Point {
        n,
        mean,
        median,
        interval: None,
        stderr: r
            .std_dev
            .filter(|_| n >= 2)
            .map(|sd| sd / (n as f64).sqrt()),
        unit,
    })
}

/// A load percentile: over the runs of a repeated test (their mean, its interval), else
/// the test's one value (no interval: one run cannot tell its own spread).
fn load_point(load: &LoadInfo, label: &str, level: f64) -> Option<Point> {
    let per_run: Option<Vec<f64>> = load
        .run_percentiles(label)
        .into_iter()
        .map(|d| d.map(|d| d.as_nanos() as f64))
        .collect();
    match per_run.filter(|v| v.len() >= 2) {
        Some(values) => {
            let s = plumb_stats::Summary::of(&values).ok()?;
            let ci = plumb_stats::mean_ci(&values, level).ok();
            Some(Point {
                n: values.len() as u64,
                mean: s.mean,
                median: s.median,
                interval: ci.as_ref().map(|c| (c.interval.lo, c.interval.hi)),
                stderr: Some(s.std_dev / (values.len() as f64).sqrt()),
                unit: Unit::Nanoseconds,
            })
        }
        None => {
            let v = load.latency.percentile(label)?.as_nanos() as f64;
            Some(Point {
                n: 1,
                mean: v,
                median: v,
                interval: None,
                stderr: None,
                unit: Unit::Nanoseconds,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{BenchmarkKind, Metric, ReportedSummary};

    fn summarised(name: &str, r: ReportedSummary) -> Benchmark {
        let mut b = Benchmark::new(name, BenchmarkKind::Function);
        b.reported.insert(Metric::WallTime, r);
        b
    }

    /// The CPU's instructions and the simulation's are two series, never one; the
    /// simulated run's own wall time (how slow valgrind was) is in none.
    #[test]
    fn simulated_counts_are_series_of_their_own() {
        use plumb_model::{MetricInfo, SimulatedCounts};
        let mut b = Benchmark::new("cmd", BenchmarkKind::Command);
        for (m, source) in [
            (Metric::WallTime, Source::Measured),
            (Metric::Instructions, Source::HardwareCounter),
        ] {
            b.metrics.insert(m.clone(), MetricInfo::known(&m, source));
            b.stats.insert(m, MetricStats::of_value(10.0));
        }
        let mut sim = SimulatedCounts::new("cachegrind", None);
        for (m, source) in [
            (Metric::Instructions, Source::Simulated),
            (Metric::EstimatedCycles, Source::Simulated),
            (Metric::WallTime, Source::Measured),
        ] {
            sim.metrics.insert(m.clone(), MetricInfo::known(&m, source));
            sim.stats.insert(m, MetricStats::of_value(20.0));
        }
        b.simulated = Some(sim);
        let keys: Vec<String> = measured(&b, 0.999).into_iter().map(|(k, _)| k).collect();
        assert_eq!(
            keys,
            [
                "wall-time",
                "instructions",
                "simulated:instructions",
                "simulated:estimated-cycles"
            ]
        );
    }

    /// pytest-benchmark's saved summary (mean, median, deviation, rounds) is a point with
    /// the standard error σ/√n; Catch2's (a mean, no median) is kept in no series.
    #[test]
    fn a_summary_with_mean_and_median_is_a_point_and_others_are_said() {
        let mut doc = ResultDocument::new(
            "0",
            plumb_model::Invocation {
                argv: Vec::new(),
                cwd: None,
            },
            plumb_model::Environment::default(),
            plumb_model::Settings::default_levels(plumb_model::ProducerSettings::Imported {
                tool: "t".into(),
            }),
        );
        let full = ReportedSummary {
            n: Some(100),
            mean: Some(50.0),
            median: Some(48.0),
            std_dev: Some(5.0),
            ..ReportedSummary::default()
        };
        doc.benchmarks.push(summarised("pytest", full));
        let mean_only = ReportedSummary {
            n: Some(30),
            mean: Some(35.5),
            ..ReportedSummary::default()
        };
        doc.benchmarks.push(summarised("catch2", mean_only));
        let machine = MachineFingerprint::of(&doc);
        let points = points_of(&doc, &machine);
        assert_eq!(points.len(), 1);
        let (key, p) = &points[0];
        assert_eq!(key.benchmark, "pytest");
        assert_eq!((p.n, p.mean, p.median, p.interval), (100, 50.0, 48.0, None));
        assert_eq!(p.stderr, Some(0.5));
        assert_eq!(outside_series(&doc), ["catch2"]);
    }
}
