//! Producer: latency under load, measured from each request's *intended* start so that a
//! stalled server cannot hide the requests it delayed (no coordinated omission).
//!
//! It holds the latency histograms and `simulate`: a single-server queue in
//! virtual time, driven by a closed-loop and an open-loop client, which shows what a
//! closed-loop test hides with exact queueing arithmetic instead of a noisy clock.

pub mod agents;
mod document;
mod error;
mod histogram;
pub mod http;
pub mod live;
mod merge;
pub mod model;
#[cfg(feature = "cli")]
pub mod options;
pub mod plan;
mod runs;
pub mod session;
mod simulate;
mod simulate_size;

pub use document::{load_benchmark, load_benchmarks, load_document, LoadContext};
pub use error::{CombineError, LoadError};
pub use histogram::{percentile_distribution, LatencyHistogram, PERCENTILES};
pub use merge::merge_load;
pub use runs::join_runs;
pub use simulate::{simulate, simulation, Arrivals, ClientReport, SimConfig, SimReport, Stall};
pub use simulate_size::{check_size, write_hgrm, TooBig};
