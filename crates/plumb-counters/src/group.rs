//! Counters of this process, opened as one group per kind (hardware, software), read whole.
use crate::{Counted, CounterEvent, EventKind, Reading};
use perf_event::{Counter, Group};
use std::io;
use std::os::fd::{AsRawFd, RawFd};

/// The events that opened on this process, as one group per kind: hardware counters share
/// the PMU's few registers and may be multiplexed as a group; software events never are,
/// and stay apart so that hardware multiplexing does not scale them.
pub struct CounterGroups {
    groups: Vec<(Group, Vec<(CounterEvent, Counter)>)>,
}

impl CounterGroups {
    /// Opens `events` on the calling process, any CPU, disabled. An event that does not
    /// open is left out (availability says why); a group none of whose events opened is
    /// not kept.
    pub fn open_self(events: &[CounterEvent]) -> io::Result<CounterGroups> {
        let mut groups = Vec::new();
        for kind in [EventKind::Hardware, EventKind::Software] {
            let wanted: Vec<CounterEvent> = events
                .iter()
                .copied()
                .filter(|e| e.kind() == kind)
                .collect();
            if wanted.is_empty() {
                continue;
            }
            let mut group = Group::new()?;
            let members: Vec<(CounterEvent, Counter)> = wanted
                .into_iter()
                .filter_map(|e| {
                    e.builder()
                        .build_with_group(&mut group)
                        .ok()
                        .map(|c| (e, c))
                })
                .collect();
            if !members.is_empty() {
                groups.push((group, members));
            }
        }
        Ok(CounterGroups { groups })
    }

    /// The events actually counted.
    pub fn events(&self) -> Vec<CounterEvent> {
        self.groups
            .iter()
            .flat_map(|(_, m)| m.iter().map(|(e, _)| *e))
            .collect()
    }

    /// Each group's leader descriptor (what a group read reads) and its members' events,
    /// in the order the kernel reports their values (after the leader's own).
    pub(crate) fn layout(&self) -> Vec<(RawFd, Vec<CounterEvent>)> {
        self.groups
            .iter()
            .map(|(g, m)| {
                (
                    g.as_counter().as_raw_fd(),
                    m.iter().map(|(e, _)| *e).collect(),
                )
            })
            .collect()
    }

    pub fn enable(&mut self) -> io::Result<()> {
        self.groups.iter_mut().try_for_each(|(g, _)| g.enable())
    }

    pub fn disable(&mut self) -> io::Result<()> {
        self.groups.iter_mut().try_for_each(|(g, _)| g.disable())
    }

    pub fn reset(&mut self) -> io::Result<()> {
        self.groups.iter_mut().try_for_each(|(g, _)| g.reset())
    }

    /// The current totals of every counter, with their groups' enabled and running times.
    pub fn read(&mut self) -> io::Result<Reading> {
        let mut counted = Vec::new();
        for (group, members) in &mut self.groups {
            let data = group.read()?;
            for (event, counter) in members.iter() {
                counted.push(Counted::of(
                    *event,
                    data.get(counter).map_or(0, |entry| entry.value()),
                    data.time_enabled(),
                    data.time_running(),
                ));
            }
        }
        Ok(Reading { counted })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The open / enable / read / disable path, for real, on the software events every
    /// Linux with perf_event_open has (hardware events join where the CPU has them):
    /// touching 16 MiB of fresh memory takes page faults and task-clock time, and
    /// nothing is counted while the groups are disabled.
    #[test]
    fn software_events_count_what_ran_between_enable_and_disable() {
        let mut g = match CounterGroups::open_self(&CounterEvent::ALL) {
            Ok(g) if g.events().contains(&CounterEvent::PageFaults) => g,
            other => {
                // No perf_event_open here (a locked-down container): say so, skip.
                plumb_testkit::skip(&format!(
                    "software events do not open here ({:?})",
                    other.err()
                ));
                return;
            }
        };
        g.reset().unwrap();
        g.enable().unwrap();
        let v = vec![1u8; 16 << 20];
        let touched: u64 = v.iter().step_by(4096).map(|&b| u64::from(b)).sum();
        g.disable().unwrap();
        let first = g.read().unwrap();
        assert_eq!(touched, 4096);
        let faults = first.get(CounterEvent::PageFaults).unwrap();
        assert!(faults.raw >= 1000, "{first:?}");
        assert!(first.get(CounterEvent::TaskClock).unwrap().raw > 0);
        assert_eq!(
            faults.live_fraction(),
            Some(1.0),
            "software events are never multiplexed"
        );
        // Disabled: work done now is not counted.
        let w = vec![1u8; 16 << 20];
        std::hint::black_box(&w);
        let later = g.read().unwrap();
        assert_eq!(
            later
                .since(&first)
                .get(CounterEvent::PageFaults)
                .unwrap()
                .raw,
            0
        );
    }
}
