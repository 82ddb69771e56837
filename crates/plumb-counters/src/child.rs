//! Counters of the child processes this thread starts, from their creation to their exit.
use crate::{Counted, CounterEvent, Reading};
use perf_event::Counter;
use std::io;

/// Counters of the commands this thread starts, children included, from their creation
/// to their exit.
///
/// Each event is opened twice on the calling thread, both enabled: once inherited by every
/// child it creates, once not. The first counts this thread and its children, the second
/// this thread alone; their difference is the children's. A child's counts reach the
/// inherited counter when it exits, so reading before a spawn and after its wait gives
/// that run's counts, including the few microseconds of the spawn's own child-side code
/// before `exec` (the C library's, not the command's).
///
/// Why not `perf stat`'s `enable_on_exec` on an inherited counter that stays disabled
/// here: measured on this machine's kernel, only 2 of 6 consecutive children had their
/// counter enabled at exec; the rest counted nothing. (Opening the counters on the
/// child's pid between fork and exec would avoid both that and the subtraction, but
/// std's spawn returns only after the exec.)
///
/// The kernel does not allow inherited counters to be read as a group, so each is read
/// on its own, with its own time enabled and running.
pub struct ChildCounters {
    counters: Vec<(CounterEvent, Counter, Counter)>,
}

impl ChildCounters {
    /// Opens those of `events` that open here; the others are left out (availability
    /// says why).
    pub fn open(events: &[CounterEvent]) -> ChildCounters {
        let counters = events
            .iter()
            .filter_map(|&e| {
                let mut inherited = e.builder();
                inherited.inherit(true).enabled(true);
                let mut own = e.builder();
                own.enabled(true);
                Some((e, inherited.build().ok()?, own.build().ok()?))
            })
            .collect();
        ChildCounters { counters }
    }

    pub fn events(&self) -> Vec<CounterEvent> {
        self.counters.iter().map(|(e, _, _)| *e).collect()
    }

    /// The totals so far of every child that has exited, with the inherited counter's
    /// times (so that `Counted::scaled` gives the children's count and `live_fraction`
    /// how long it was on the PMU).
    pub fn read(&mut self) -> io::Result<Reading> {
        let counted = self
            .counters
            .iter_mut()
            .map(|(event, all, own)| {
                let (all, own) = (all.read_full()?, own.read_full()?);
                let read = |d: &perf_event::CounterData| {
                    Counted::of(*event, d.count(), d.time_enabled(), d.time_running())
                };
                let (all, own) = (read(&all), read(&own));
                // Scaled before subtracting: the two may have been multiplexed apart.
                let children = (all.scaled().unwrap_or(0.0) - own.scaled().unwrap_or(0.0)).max(0.0);
                // Stored as the raw count that scales to it, so it is not scaled twice.
                let live = all.live_fraction().unwrap_or(1.0).min(1.0);
                Ok(Counted {
                    raw: (children * live).round() as u64,
                    ..all
                })
            })
            .collect::<io::Result<Vec<_>>>()?;
        Ok(Reading { counted })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every child's work is counted, run after run; this thread's own work between the
    /// reads is not.
    #[test]
    fn each_childs_work_is_counted_and_the_parents_is_not() {
        let mut c = ChildCounters::open(&CounterEvent::ALL);
        if !c.events().contains(&CounterEvent::PageFaults) {
            plumb_testkit::skip("software events do not open here");
            return;
        }
        let faults = |r: &Reading| r.get(CounterEvent::PageFaults).unwrap().raw;
        for run in 0..6 {
            let before = c.read().unwrap();
            let status = std::process::Command::new("sh")
                .args(["-c", "x=0; while [ $x -lt 20000 ]; do x=$((x+1)); done"])
                .status()
                .unwrap();
            assert!(status.success());
            let child = c.read().unwrap().since(&before);
            let clock = child.get(CounterEvent::TaskClock).unwrap();
            assert!(
                clock.raw > 1_000_000,
                "run {run}: the loop takes milliseconds: {child:?}"
            );
            assert!(faults(&child) > 10, "run {run}: {child:?}");
        }
        // This thread touches 16 MiB (4096 pages): none of it is counted.
        let before = c.read().unwrap();
        let v = vec![1u8; 16 << 20];
        let touched: u64 = v.iter().step_by(4096).map(|&b| u64::from(b)).sum();
        assert_eq!(touched, 4096);
        let parent_only = c.read().unwrap().since(&before);
        assert!(faults(&parent_only) < 50, "{parent_only:?}");
    }
}
