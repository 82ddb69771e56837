//! Event counters through `perf_event_open` (the `perf-event2` crate, feature `perf`;
//! without it `absent.rs` opens nothing and only simulated counts remain).
//!
//! - `catalogue`: the events plumb counts, each a metric of the result model;
//! - `availability`: which of them open on this machine, and why the others do not
//!   (no PMU under this hypervisor, `perf_event_paranoid`, …), said once per run;
//! - `child`: counters that follow the commands this process starts, exec to exit;
//! - `group`: the events that opened, as one group per kind (hardware, software), enabled
//!   and disabled together so that their values cover the same stretch of execution;
//! - `cachegrind`: simulated counters where the CPU has none: valgrind's cachegrind
//!   (a whole command) or callgrind (only an in-process routine's measured region)
//!   given this machine's cache geometry, and their totals read back;
//! - `plan`: `--counters[=auto|hardware|simulated]` decided against this machine;
//! - `probe`: the groups as a probe of the in-process harness, read around each
//!   measured sample without allocating;
//! - `reading`: raw values scaled by time enabled / time running when the kernel
//!   multiplexed the group, with the fraction of time each was live.

#[cfg(not(feature = "perf"))]
mod absent;
mod availability;
pub mod cachegrind;
mod catalogue;
#[cfg(feature = "perf")]
mod child;
#[cfg(feature = "perf")]
mod group;
pub mod plan;
mod probe;
mod reading;
pub mod unreadable;
pub mod valgrind;

#[cfg(not(feature = "perf"))]
pub use absent::{ChildCounters, CounterGroups};
pub use availability::{availability, why_missing};
pub use catalogue::{CounterEvent, EventKind};
#[cfg(feature = "perf")]
pub use child::ChildCounters;
#[cfg(feature = "perf")]
pub use group::CounterGroups;
pub use probe::CounterProbe;
pub use reading::{Counted, Reading};
