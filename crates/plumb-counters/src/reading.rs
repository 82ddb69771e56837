//! Counter readings: a value with its enabled and running times, scaled for multiplexing.
use crate::CounterEvent;
#[cfg(feature = "perf")]
use std::time::Duration;

/// One counter's value over a stretch of execution, as the kernel reported it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Counted {
    pub event: CounterEvent,
    pub raw: u64,
    /// Nanoseconds the counter's group was enabled, and of those, on the PMU.
    pub time_enabled: u64,
    pub time_running: u64,
}

impl Counted {
    /// A counter as perf reports it: its count and the times it was enabled and running
    /// (absent when the read format has no times: taken as zero, so never scaled).
    #[cfg(feature = "perf")]
    pub(crate) fn of(
        event: CounterEvent,
        raw: u64,
        enabled: Option<Duration>,
        running: Option<Duration>,
    ) -> Counted {
        let ns = |d: Option<Duration>| d.map_or(0, |d| d.as_nanos() as u64);
        Counted {
            event,
            raw,
            time_enabled: ns(enabled),
            time_running: ns(running),
        }
    }

    /// The fraction of the enabled time the counter was live: 1 unless the kernel
    /// multiplexed more events than the PMU has registers.
    pub fn live_fraction(&self) -> Option<f64> {
        (self.time_enabled > 0).then(|| self.time_running as f64 / self.time_enabled as f64)
    }

    /// The count and times over the stretch since `before`, an earlier read of the same
    /// counter.
    pub fn since(&self, before: &Counted) -> Counted {
        Counted {
            event: self.event,
            raw: self.raw.saturating_sub(before.raw),
            time_enabled: self.time_enabled.saturating_sub(before.time_enabled),
            time_running: self.time_running.saturating_sub(before.time_running),
        }
    }

    /// The value scaled to the whole enabled time (raw × enabled / running), as `perf
    /// stat` does; `None` when the counter never ran, which is not a count of zero.
    pub fn scaled(&self) -> Option<f64> {
        match (self.time_running, self.time_enabled) {
            (0, 0) => Some(self.raw as f64),
            (0, _) => None,
            (running, enabled) if running >= enabled => Some(self.raw as f64),
            (running, enabled) => Some(self.raw as f64 * enabled as f64 / running as f64),
        }
    }
}

/// Every counter of a read, hardware and software groups together.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reading {
    pub counted: Vec<Counted>,
}

impl Reading {
    pub fn get(&self, event: CounterEvent) -> Option<&Counted> {
        self.counted.iter().find(|c| c.event == event)
    }

    /// The change of each counter from `before` to `self` (both reads of the same
    /// groups, `before` first).
    pub fn since(&self, before: &Reading) -> Reading {
        let counted = self
            .counted
            .iter()
            .map(|after| match before.get(after.event) {
                Some(b) => after.since(b),
                None => *after,
            })
            .collect();
        Reading { counted }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counted(raw: u64, enabled: u64, running: u64) -> Counted {
        Counted {
            event: CounterEvent::Instructions,
            raw,
            time_enabled: enabled,
            time_running: running,
        }
    }

    /// Multiplexed: live for a quarter of the time, so the 1000 events seen stand for
    /// 4000 over the whole stretch (perf stat's scaling), live fraction 0.25.
    #[test]
    fn multiplexed_counts_are_scaled_by_enabled_over_running() {
        let c = counted(1000, 4_000_000, 1_000_000);
        assert_eq!(c.scaled(), Some(4000.0));
        assert_eq!(c.live_fraction(), Some(0.25));
        let full = counted(1000, 4_000_000, 4_000_000);
        assert_eq!(
            (full.scaled(), full.live_fraction()),
            (Some(1000.0), Some(1.0))
        );
    }

    #[test]
    fn a_counter_that_never_ran_has_no_value_rather_than_zero() {
        assert_eq!(counted(0, 5_000, 0).scaled(), None);
        assert_eq!(counted(0, 0, 0).scaled(), Some(0.0));
        assert_eq!(counted(0, 0, 0).live_fraction(), None);
    }

    #[test]
    fn the_difference_of_two_reads_is_per_stretch() {
        let before = Reading {
            counted: vec![counted(100, 1_000, 500)],
        };
        let after = Reading {
            counted: vec![counted(700, 3_000, 1_500)],
        };
        let d = after.since(&before);
        assert_eq!(d.counted, vec![counted(600, 2_000, 1_000)]);
        assert_eq!(d.counted[0].scaled(), Some(1200.0));
    }
}
