//! The unit of replication: the values whose spread is the uncertainty of a benchmark's
//! mean, for its interval (the Error) and for verdicts.
//!
//! * Launches, when a function benchmark ran in several fresh processes: samples of one
//!   process share its code layout and address-space randomisation.
//! * Batch means, for the samples of one in-process run that are dependent (their lag-1
//!   autocorrelation beyond chance): they are taken back to back, and a machine that is
//!   slow for a while makes runs of slow samples, so treating them as independent
//!   understates the uncertainty (on a shared VM, by several times).
//! * The samples themselves otherwise: each command run is its own process, and
//!   independent in-process samples are not batched — ten batch means give 9 degrees of
//!   freedom, and one far-out sample (a preempted round) would make its batch the spread.

use plumb_model::{Benchmark, BenchmarkKind, Metric};

/// Batches for batch means: 9 degrees of freedom, batches long enough to span a slow
/// episode of a few percent of the run. plumb-bench's precision target uses the same.
pub const BATCHES: usize = 10;

/// The one-sided level at which samples are taken as dependent (and batched): a test that
/// errs towards batching, the safe side — a missed slow spell would narrow the interval.
const DEPENDENCE_ALPHA: f64 = 0.05;

/// The replicates of `b`'s `metric`, given its analysed per-op values in run order.
pub fn replicates(b: &Benchmark, metric: &Metric, values: &[f64]) -> Vec<f64> {
    if let Some(means) = b.launch_means(metric) {
        return means;
    }
    // Batches of at least two samples; fewer samples stay as they are.
    let dependent = || plumb_stats::positively_autocorrelated(values, DEPENDENCE_ALPHA);
    if b.kind() == BenchmarkKind::Function
        && values.len() >= 2 * BATCHES
        && dependent().unwrap_or(true)
    {
        return plumb_stats::batch_means(values, BATCHES);
    }
    values.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    fn with(kind: BenchmarkKind, n: usize) -> (Benchmark, Vec<f64>) {
        let b = Benchmark::of_wall_times("x", kind, (0..n as u64).map(|i| 100 + i));
        let t = b.analysed_times_ns();
        (b, t)
    }

    #[test]
    fn in_process_samples_are_replicated_by_batch() {
        // 25 samples 100..=124: five batches of 3 then five of 2, every sample in one.
        let (b, t) = with(BenchmarkKind::Function, 25);
        let r = replicates(&b, &Metric::WallTime, &t);
        assert_eq!(r.len(), BATCHES);
        assert_eq!(r[0], 101.0);
        assert_eq!(r[4], 113.0);
        assert_eq!(r[5], 115.5);
        assert_eq!(r[9], 123.5);
        // And the interval is the one plumb-stats computes by batch means.
        let direct = plumb_stats::batch_means_ci(&t, BATCHES, 0.999).unwrap();
        assert_eq!(plumb_stats::mean_ci(&r, 0.999).unwrap(), direct);
    }

    #[test]
    fn commands_and_short_runs_are_replicated_by_sample() {
        let (b, t) = with(BenchmarkKind::Command, 50);
        assert_eq!(replicates(&b, &Metric::WallTime, &t), t);
        let (b, t) = with(BenchmarkKind::Function, 19);
        assert_eq!(replicates(&b, &Metric::WallTime, &t), t);
    }

    /// Issue 46: independent in-process samples are their own replicates, one far-out
    /// sample (a preempted round) included, instead of ten batch means one of which it
    /// makes the spread; a slow spell is still batched.
    #[test]
    fn only_dependent_in_process_samples_are_batched() {
        let jitter = |i: u64| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 59) + 1000;
        let mut times: Vec<u64> = (0..2000).map(jitter).collect();
        times[777] = 1_000_000;
        let b = Benchmark::of_wall_times("x", BenchmarkKind::Function, times.iter().copied());
        let t = b.analysed_times_ns();
        assert_eq!(replicates(&b, &Metric::WallTime, &t).len(), 2000);
        let spell: Vec<u64> = (0..2000)
            .map(|i| jitter(i) + if (900..1100).contains(&i) { 30 } else { 0 })
            .collect();
        let b = Benchmark::of_wall_times("x", BenchmarkKind::Function, spell);
        let t = b.analysed_times_ns();
        assert_eq!(replicates(&b, &Metric::WallTime, &t).len(), BATCHES);
    }
}
