//! Counters as a probe of the in-process harness: each group read whole, once just before
//! a sample's region and once just after, and the difference kept — so only the
//! measured regions are in the counts, never warm-up, calibration or other benchmarks'
//! samples, whatever else the process does between them. A read is one `read(2)` into a
//! buffer on the stack: no allocation (perf-event2's group read returns a `Vec`, which is
//! why the raw read is used here).

use crate::{Counted, CounterEvent, CounterGroups, EventKind};
use plumb_model::{Metric, MetricInfo, Source};
use plumb_probe::{Probe, ProbeMetric};
use std::os::fd::RawFd;

const EVENTS: usize = CounterEvent::ALL.len();
/// A group read: count, time enabled, time running, then (value, id) for the leader and
/// each member.
const WORDS: usize = 3 + 2 * (1 + EVENTS);
const GROUPS: usize = 2;

/// The raw reads of every group at one moment.
#[derive(Debug, Clone, Copy)]
pub struct Marks([[u64; WORDS]; GROUPS]);

/// The counters that opened on this thread, read around each measured region.
pub struct CounterProbe {
    /// Kept open for the probe's life; the reads use their leaders' descriptors.
    _groups: CounterGroups,
    fds: [Option<RawFd>; GROUPS],
    /// The value written into each slot: (group, entry in the group read, event).
    slots: Vec<(usize, usize, CounterEvent)>,
    /// The hardware group's index, when there is one.
    hardware: Option<usize>,
}

impl CounterProbe {
    /// Opens every catalogued event on the calling thread and enables the groups; `None`
    /// when none opens (no perf_event_open, or none of its events).
    pub fn open() -> Option<CounterProbe> {
        let mut groups = CounterGroups::open_self(&CounterEvent::ALL).ok()?;
        groups.enable().ok()?;
        let layout = groups.layout();
        let mut fds = [None; GROUPS];
        let mut slots = Vec::new();
        let mut hardware = None;
        for (g, (fd, members)) in layout.into_iter().enumerate().take(GROUPS) {
            fds[g] = Some(fd);
            if members
                .first()
                .is_some_and(|e| e.kind() == EventKind::Hardware)
            {
                hardware = Some(g);
            }
            slots.extend(members.into_iter().enumerate().map(|(i, e)| (g, i + 1, e)));
        }
        (!slots.is_empty()).then_some(CounterProbe {
            _groups: groups,
            fds,
            slots,
            hardware,
        })
    }

    #[inline(always)]
    fn read_all(&self) -> Marks {
        let mut marks = Marks([[0; WORDS]; GROUPS]);
        for (words, fd) in marks.0.iter_mut().zip(self.fds) {
            if let Some(fd) = fd {
                // SAFETY: `words` is a writable buffer of exactly the length passed; a
                // failed or short read leaves zeros, which read as "never ran".
                unsafe {
                    libc::read(fd, words.as_mut_ptr().cast(), std::mem::size_of_val(words));
                }
            }
        }
        marks
    }
}

/// One entry of a raw group read, with the group's enabled and running times.
fn entry_of(words: &[u64; WORDS], entry: usize, event: CounterEvent) -> Counted {
    Counted {
        event,
        raw: words[3 + 2 * entry],
        time_enabled: words[1],
        time_running: words[2],
    }
}

/// One entry's count over the stretch between two group reads.
fn between(
    before: &[u64; WORDS],
    after: &[u64; WORDS],
    entry: usize,
    event: CounterEvent,
) -> Counted {
    entry_of(after, entry, event).since(&entry_of(before, entry, event))
}

impl Probe for CounterProbe {
    type Mark = Marks;
    /// Every event, and the hardware counters' live share.
    const LEN: usize = EVENTS + 1;

    /// The events that opened, then (with hardware counters) their live share.
    fn metrics(&self) -> Vec<ProbeMetric> {
        let mut m: Vec<ProbeMetric> = self
            .slots
            .iter()
            .map(|(_, _, e)| ProbeMetric {
                metric: e.metric(),
                info: MetricInfo::known(&e.metric(), e.source()),
            })
            .collect();
        if self.hardware.is_some() {
            m.push(ProbeMetric {
                metric: Metric::HardwareLivePpm,
                info: MetricInfo::known(&Metric::HardwareLivePpm, Source::HardwareCounter),
            });
        }
        m
    }

    #[inline(always)]
    fn start(&self) -> Marks {
        self.read_all()
    }

    /// A counter that never ran during the sample (multiplexed out) writes zero; the
    /// live share (the hardware group's, which all its members share) says so.
    #[inline(always)]
    fn stop(&self, before: Marks, out: &mut [u64]) {
        let after = self.read_all();
        let mut live = 0.0;
        for (slot, &(g, entry, event)) in out.iter_mut().zip(&self.slots) {
            let c = between(&before.0[g], &after.0[g], entry, event);
            *slot = c.scaled().map_or(0, |v| v.round() as u64);
            if Some(g) == self.hardware {
                live = c.live_fraction().unwrap_or(0.0);
            }
        }
        if self.hardware.is_some() {
            out[self.slots.len()] = (live * 1e6).round() as u64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The multiplexing arithmetic on synthetic reads: a counter live for 250 of the
    /// sample's 1,000 ns counted 1,000 events, which scale to 4,000 (perf stat's rule).
    #[test]
    fn deltas_are_scaled_by_the_sample_share_they_ran() {
        let mut before = [0u64; WORDS];
        let mut after = [0u64; WORDS];
        before[..3].copy_from_slice(&[2, 10_000, 9_000]);
        after[..3].copy_from_slice(&[2, 11_000, 9_250]);
        before[5] = 50_000;
        after[5] = 51_000;
        let c = between(&before, &after, 1, CounterEvent::ALL[0]);
        assert_eq!((c.raw, c.time_enabled, c.time_running), (1_000, 1_000, 250));
        assert_eq!(c.scaled(), Some(4_000.0));
        assert_eq!(c.live_fraction(), Some(0.25));
    }

    /// For real, on the software events (hardware ones join where the CPU has them):
    /// touching 8 MiB of fresh memory (2048 pages) between start and stop counts its page
    /// faults; the same work before `start` is not counted.
    #[test]
    fn counts_only_the_region_between_start_and_stop() {
        let Some(p) = CounterProbe::open() else {
            plumb_testkit::skip("no counters open here");
            return;
        };
        let metrics = p.metrics();
        let faults = metrics
            .iter()
            .position(|m| m.metric == Metric::PageFaults)
            .expect("page faults open wherever perf_event_open does");
        // Fresh pages from the kernel, not memory the allocator already has (other
        // tests of this process free theirs).
        let touch_fresh = || unsafe {
            // SAFETY: a private anonymous mapping, written within its length, unmapped.
            let len = 8 << 20;
            let m = libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            ) as *mut u8;
            assert_ne!(m.cast::<libc::c_void>(), libc::MAP_FAILED);
            for page in 0..len / 4096 {
                m.add(page * 4096).write_volatile(1);
            }
            libc::munmap(m.cast(), len);
        };
        touch_fresh();
        let mark = p.start();
        touch_fresh();
        let mut out = [0u64; CounterProbe::LEN];
        p.stop(mark, &mut out);
        assert!(
            (1_500..4_000).contains(&out[faults]),
            "{} page faults for 2048 fresh pages",
            out[faults]
        );
        let mark = p.start();
        let mut idle = [0u64; CounterProbe::LEN];
        p.stop(mark, &mut idle);
        assert!(idle[faults] < 10, "nothing touched: {}", idle[faults]);
    }
}
