//! Drift checks: times that trend with run order (Mann–Kendall), and a cold first run.
use super::amount;
use plumb_model::finding::{ColdStart, ColdWarmup, Drift};
use plumb_model::{Benchmark, Diagnostic, Metric, Severity};
use plumb_stats::{mann_kendall, tukey_outliers, Summary};

/// A trend is reported when Mann–Kendall rejects "no trend" at this level *and* it is
/// strong enough to matter.
pub const TREND_P: f64 = 0.001;
pub const TREND_MIN_TAU: f64 = 0.2;
pub const MIN_SAMPLES: usize = 10;
/// A first run at least this many times the median, beyond the far fence, is a cold start.
pub const COLD_START_RATIO: f64 = 1.25;
/// See `cold_start`: the share of other runs as slow as a cold first run above which it
/// is not told apart from noise.
pub const COLD_START_MAX_SLOW_SHARE: f64 = 0.05;

/// Times that rise or fall with run order: the run was not in a steady state.
pub fn trend(times: &[f64]) -> Option<Diagnostic> {
    if times.len() < MIN_SAMPLES {
        return None;
    }
    let mk = mann_kendall(times).ok()?;
    if mk.p >= TREND_P || mk.tau.abs() < TREND_MIN_TAU {
        return None;
    }
    let half = times.len() / 2;
    let first = times[..half].iter().sum::<f64>() / half as f64;
    let second = times[half..].iter().sum::<f64>() / (times.len() - half) as f64;
    let finding = Drift {
        tau: mk.tau,
        p: mk.p,
        half_change: second / first - 1.0,
    };
    Some(Diagnostic::new(Severity::Warning, finding))
}

/// The first measured run far slower than the rest: warm-up was too short. Also notes,
/// as evidence that warm-up did its job, when warm-up runs were slower than measured ones.
pub fn cold_start(b: &Benchmark, metric: &Metric) -> Option<Diagnostic> {
    let times = b.per_op(metric);
    if times.len() < MIN_SAMPLES {
        return None;
    }
    let o = tukey_outliers(&times).ok()?;
    // The fences are Q1 - 1.5·IQR and Q3 + 1.5·IQR, 4·IQR apart; the far fence is Q3 + 3·IQR.
    let iqr = (o.upper_fence - o.lower_fence) / 4.0;
    let far_fence = o.upper_fence + 1.5 * iqr;
    let median = Summary::of(&times).ok()?.median;
    // Beyond the far fence and a quarter slower than the median: with very tight samples
    // the fence alone catches a first run a few percent slow, which a busy machine
    // produces by chance and which no warm-up would remove.
    // A slow first run says "cold" only where slow runs are rare: when more than
    // `COLD_START_MAX_SLOW_SHARE` of the other runs are beyond the far fence too, the
    // machine's noise explains it as well.
    let slow_share =
        times[1..].iter().filter(|&&t| t > far_fence).count() as f64 / (times.len() - 1) as f64;
    if times[0] > far_fence
        && times[0] > COLD_START_RATIO * median
        && slow_share <= COLD_START_MAX_SLOW_SHARE
    {
        // An in-process benchmark with warm-up turned off keeps only its batch-sizing runs
        // in `warmup`: they were not a warm-up.
        let warmup_off = b.function().is_some_and(|f| !f.warmup);
        let finding = ColdStart {
            first: amount(b, metric, times[0]),
            median: amount(b, metric, median),
            warmup_runs: (!warmup_off).then_some(b.warmup.len()),
        };
        return Some(Diagnostic::new(Severity::Warning, finding));
    }
    if b.warmup.is_empty() {
        return None;
    }
    let warm = b.warmup_per_op(metric);
    let warm_median = Summary::of(&warm).ok()?.median;
    (warm_median > o.upper_fence).then(|| {
        let finding = ColdWarmup {
            warmup_median: amount(b, metric, warm_median),
            upper_fence: amount(b, metric, o.upper_fence),
            warmup_runs: b.warmup.len(),
        };
        Diagnostic::new(Severity::Info, finding)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steady_series_has_no_trend_and_a_ramp_does() {
        let steady: Vec<f64> = (0..40).map(|i| 100.0 + ((i * 7919) % 13) as f64).collect();
        assert!(trend(&steady).is_none());
        let ramp: Vec<f64> = (0..40)
            .map(|i| 100.0 + i as f64 + ((i * 7919) % 5) as f64)
            .collect();
        let d = trend(&ramp).unwrap();
        let plumb_model::Finding::Drift(f) = &d.finding else {
            panic!("{d:?}")
        };
        assert!(f.tau > 0.0 && f.half_change > 0.0, "{f:?}");
    }

    /// On a noisy machine, where 17 % of runs are as slow as the first, a slow first run
    /// is not evidence of a cold start (CI once flagged a warm variant so).
    #[test]
    fn a_slow_first_run_among_many_slow_runs_is_not_called_cold() {
        use plumb_model::BenchmarkKind;
        let noisy: Vec<u64> = std::iter::once(160)
            .chain((0..100).map(|i| if i % 6 == 0 { 160 + i % 5 } else { 110 + i % 3 }))
            .collect();
        let b = Benchmark::of_wall_times("f", BenchmarkKind::Function, noisy);
        assert!(cold_start(&b, &Metric::WallTime).is_none());
        let quiet: Vec<u64> = std::iter::once(160)
            .chain((0..100).map(|i| 110 + i % 3))
            .collect();
        let b = Benchmark::of_wall_times("f", BenchmarkKind::Function, quiet);
        assert!(cold_start(&b, &Metric::WallTime).is_some());
    }

    #[test]
    fn a_slow_first_run_blames_the_warmup_only_when_there_was_one() {
        use plumb_model::{BenchmarkKind, FunctionInfo};
        let mut b = Benchmark::of_wall_times(
            "f",
            BenchmarkKind::Function,
            std::iter::once(5000).chain((0..30).map(|i| 100 + i % 3)),
        );
        b.warmup = Benchmark::of_wall_times("w", BenchmarkKind::Function, [100; 3]).samples;
        b.set_function(FunctionInfo {
            warmup: true,
            ..Default::default()
        });
        let warmup_runs = |b: &Benchmark| match cold_start(b, &Metric::WallTime).unwrap().finding {
            plumb_model::Finding::ColdStart(c) => c.warmup_runs,
            other => panic!("{other:?}"),
        };
        assert_eq!(warmup_runs(&b), Some(3));
        b.function_mut().unwrap().warmup = false;
        assert_eq!(warmup_runs(&b), None);
    }
}
