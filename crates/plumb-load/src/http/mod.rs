//! `plumb load`: HTTP/1.1 load without coordinated omission.
//!
//! Open loop (the default): requests are due on a fixed schedule (or Poisson arrivals);
//! each one's latency is measured from the time it was *due*, its service time from the
//! time it was actually sent, and the generator's own lateness (taken up − due) is
//! recorded apart, as are waits for a free connection when the in-flight bound is full,
//! so neither a generator that falls behind nor a server that piles up requests is
//! mistaken for the other. Closed loop (`--closed N`) runs N connections back to back for
//! throughput and saturation, and says that it does not measure user latency.
//!
//! Each generator thread runs its own event loop over its own connections (`engine`),
//! with its own recorder; the threads' histograms are merged losslessly at the end.

mod capacity;
mod clock;
mod config;
mod conn;
mod engine;
mod h2;
mod hlog;
mod mix;
mod planned;
mod reach;
mod recorder;
mod recorders;
mod request;
mod response;
mod run;
mod schedule;
mod setup;
mod target;
pub mod targets_file;
mod timer;
pub mod tls;
mod transport;

pub use capacity::{probe, Capacity, PROBE_ABOVE};
pub use config::{LoadConfig, MixTarget, Pacing, DEFAULT_SPIN};
pub use engine::{LiveFeed, LiveTick, LIVE_EVERY};
pub use recorder::{Answer, LiveCounts, LoadReport, SecondRow, SlotWaits};
pub use request::RequestError;
pub use run::run;
pub use target::{Target, TargetError};
