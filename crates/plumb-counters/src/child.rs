use crate::{Counted, CounterEvent, Reading};
use perf_event::Counter;
use std::io;

/// Counters that follow the commands this process starts, from their `exec` to their
/// exit, children included: each is opened on this process disabled, inherited by every
/// child, and enabled in a child when it execs (`perf stat`'s arrangement). This process
/// never execs, so its own work is not counted; a child's counts are added to the
/// counter when the child exits. Reading before a spawn and after its wait gives that
/// run's counts.
///
/// The kernel does not allow inherited counters to be read as a group, so each is read
/// on its own, with its own time enabled and running.
pub struct ChildCounters {
    counters: Vec<(CounterEvent, Counter)>,
}

impl ChildCounters {
    /// Opens those of `events` that open here; the others are left out (availability
    /// says why).
    pub fn open(events: &[CounterEvent]) -> ChildCounters {
        let counters = events
            .iter()
            .filter_map(|&e| {
                let mut b = e.builder();
                b.inherit(true).enable_on_exec(true);
                b.build().ok().map(|c| (e, c))
            })
            .collect();
        ChildCounters { counters }
    }

    pub fn events(&self) -> Vec<CounterEvent> {
        self.counters.iter().map(|(e, _)| *e).collect()
    }

    /// The totals so far of every child that has exited.
    pub fn read(&mut self) -> io::Result<Reading> {
        let ns = |d: Option<std::time::Duration>| d.map_or(0, |d| d.as_nanos() as u64);
        let counted = self
            .counters
            .iter_mut()
            .map(|(event, c)| {
                let data = c.read_full()?;
                Ok(Counted {
                    event: *event,
                    raw: data.count(),
                    time_enabled: ns(data.time_enabled()),
                    time_running: ns(data.time_running()),
                })
            })
            .collect::<io::Result<Vec<_>>>()?;
        Ok(Reading { counted })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child's work is counted, from its exec to its exit; this process's own work
    /// between the reads is not.
    #[test]
    fn a_childs_work_is_counted_and_the_parents_is_not() {
        let mut c = ChildCounters::open(&CounterEvent::ALL);
        if !c.events().contains(&CounterEvent::PageFaults) {
            eprintln!("skipped: software events do not open here");
            return;
        }
        let before = c.read().unwrap();
        assert!(before.counted.iter().all(|x| x.raw == 0), "{before:?}");
        let status = std::process::Command::new("sh")
            .args(["-c", "x=0; while [ $x -lt 20000 ]; do x=$((x+1)); done"])
            .status()
            .unwrap();
        assert!(status.success());
        let after_child = c.read().unwrap().since(&before);
        let clock = after_child.get(CounterEvent::TaskClock).unwrap();
        assert!(
            clock.raw > 1_000_000,
            "the loop takes milliseconds: {after_child:?}"
        );
        assert!(after_child.get(CounterEvent::PageFaults).unwrap().raw > 10);
        // The parent touches 16 MiB (4096 pages): none of it is counted.
        let v = vec![1u8; 16 << 20];
        let touched: u64 = v.iter().step_by(4096).map(|&b| u64::from(b)).sum();
        assert_eq!(touched, 4096);
        let faults = |r: &Reading| r.get(CounterEvent::PageFaults).unwrap().raw;
        let after_parent = c.read().unwrap().since(&before);
        assert_eq!(
            faults(&after_parent),
            faults(&after_child),
            "{after_parent:?}"
        );
    }
}
