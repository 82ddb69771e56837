//! The sensitivity line (the talk's "Sensitivity: BPU-heavy? Cache-reliant? Scheduler
//! jitter? perf & CDF shape"): what a benchmark's time hangs on, gathered from what the
//! other checks found — branch-bound and memory-bound from the counters (real or
//! simulated), a cache cliff along a sweep — and from the CDF's shape: a long right tail
//! or several modes. One finding a benchmark, its evidence beside each part.
use plumb_model::finding::{Sensitive, Sensitivity};
use plumb_model::{Benchmark, Diagnostic, Finding, Metric, ResultDocument, Severity};

/// p99 at least this many times the median is a long tail: a normal distribution with a
/// 5 % CV has p99/p50 ≈ 1.12; 1.5 takes delayed runs, not noise.
pub const LONG_TAIL: f64 = 1.5;
/// The fewest samples whose p99 is an estimate rather than the maximum.
const TAIL_SAMPLES: usize = 100;

/// Adds each benchmark's sensitivity line, after the other checks have run.
pub fn attach(doc: &mut ResultDocument, metric: &Metric) {
    for b in &mut doc.benchmarks {
        if let Some(d) = of(b, metric) {
            b.diagnostics.retain(|x| x.code() != d.code());
            b.diagnostics.push(d);
        }
    }
}

fn of(b: &Benchmark, metric: &Metric) -> Option<Diagnostic> {
    let mut to = Vec::new();
    let mut modes = 1;
    for d in &b.diagnostics {
        match &d.finding {
            Finding::BranchBound(x) => to.push(Sensitive::BranchPredictor {
                miss_rate: x.miss_rate,
                source: x.source,
            }),
            Finding::MemoryBound(x) => to.push(Sensitive::Cache {
                cache: x.cache.clone(),
                miss_rate: Some(x.miss_rate),
                cliff: None,
            }),
            Finding::CacheCliff(x) => to.extend(x.passed().last().map(|c| Sensitive::Cache {
                cache: c.name.clone(),
                miss_rate: None,
                cliff: Some(x.ratio),
            })),
            Finding::Multimodal(x) => modes = x.modes.len().max(1),
            _ => {}
        }
    }
    let tail_ratio = tail_ratio(&b.analysed(metric));
    if modes > 1 || tail_ratio.is_some_and(|t| t >= LONG_TAIL) {
        to.push(Sensitive::SchedulerJitter {
            tail_ratio: tail_ratio.unwrap_or(f64::NAN),
            modes,
        });
    }
    (!to.is_empty()).then(|| Diagnostic::new(Severity::Info, Sensitivity { to }))
}

/// p99 / median, from at least 100 samples.
fn tail_ratio(values: &[f64]) -> Option<f64> {
    if values.len() < TAIL_SAMPLES {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let median = plumb_stats::percentile_of_sorted(&v, 50.0);
    (median > 0.0).then(|| plumb_stats::percentile_of_sorted(&v, 99.0) / median)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::finding::BranchBound;
    use plumb_model::{BenchmarkKind, Source};

    fn runs(body: u64, slow_every: usize, slow: u64) -> Benchmark {
        let times = (0..200).map(|i| {
            if i % slow_every == 0 {
                slow
            } else {
                body + (i % 7) as u64
            }
        });
        Benchmark::of_wall_times("b", BenchmarkKind::Command, times)
    }

    #[test]
    fn a_long_tail_is_scheduler_jitter_with_its_ratio() {
        // 200 runs, every 20th at 3,000 against ~1,003: 5 % slow, so p99 is 3,000.
        let b = runs(1000, 20, 3000);
        let Some(d) = of(&b, &Metric::WallTime) else {
            panic!()
        };
        let Finding::Sensitivity(s) = &d.finding else {
            panic!()
        };
        let Sensitive::SchedulerJitter { tail_ratio, modes } = s.to[0] else {
            panic!("{s:?}")
        };
        assert!((tail_ratio - 3000.0 / 1003.0).abs() < 1e-9, "{tail_ratio}");
        assert_eq!(modes, 1);
        // A tight distribution is sensitive to nothing.
        assert!(of(&runs(1000, 1000, 1006), &Metric::WallTime).is_none());
    }

    #[test]
    fn the_counters_findings_are_gathered() {
        let mut b = runs(1000, 1000, 1006);
        b.diagnostics.push(Diagnostic::new(
            Severity::Warning,
            BranchBound {
                mispredictions_per_op: 0.5,
                branches_per_op: 4.0,
                miss_rate: 0.125,
                threshold: 0.05,
                source: Source::Simulated,
            },
        ));
        let d = of(&b, &Metric::WallTime).unwrap();
        let Finding::Sensitivity(s) = &d.finding else {
            panic!()
        };
        assert_eq!(
            s.to,
            vec![Sensitive::BranchPredictor {
                miss_rate: 0.125,
                source: Source::Simulated
            }]
        );
    }
}
