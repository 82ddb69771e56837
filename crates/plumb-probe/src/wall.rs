//! The wall-clock probe: the monotonic clock read around a measured region, in nanoseconds.
use crate::{Probe, ProbeMetric};
use plumb_model::{Metric, MetricInfo};
use std::time::Instant;

/// The monotonic clock (`Instant`, CLOCK_MONOTONIC on Linux): wall time in nanoseconds.
#[derive(Debug, Clone, Copy, Default)]
pub struct WallClock;

impl Probe for WallClock {
    type Mark = Instant;
    const LEN: usize = 1;

    fn metrics(&self) -> Vec<ProbeMetric> {
        vec![ProbeMetric {
            metric: Metric::WallTime,
            info: MetricInfo::measured(&Metric::WallTime),
        }]
    }

    #[inline(always)]
    fn start(&self) -> Instant {
        Instant::now()
    }

    #[inline(always)]
    fn stop(&self, mark: Instant, out: &mut [u64]) {
        out[0] = u64::try_from(mark.elapsed().as_nanos()).unwrap_or(u64::MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_a_sleep_as_at_least_its_length() {
        let mark = WallClock.start();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let mut out = [0];
        WallClock.stop(mark, &mut out);
        assert!(out[0] >= 2_000_000, "{}", out[0]);
    }
}
