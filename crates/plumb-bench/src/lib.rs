//! plumb-bench: an in-process benchmark harness whose numbers survive the enemies of
//! measurement, writing plumb's shared result model.
//!
//! ```no_run
//! use plumb_bench::{black_box, Harness};
//!
//! fn main() {
//!     let data: Vec<u32> = (0..10_000).collect();
//!     let mut h = Harness::from_env();
//!     h.group("sum")
//!         .same_result()
//!         .baseline("loop", |b| b.iter_checked(|| {
//!             let mut s = 0u64;
//!             for &x in black_box(&data) { s += x as u64 }
//!             s
//!         }))
//!         .bench("iter", |b| b.iter_checked(|| black_box(&data).iter().map(|&x| x as u64).sum::<u64>()));
//!     h.run();
//! }
//! ```
//!
//! In `Cargo.toml`: `[[bench]] name = "…" harness = false`. Run with `cargo bench`.

mod alloc;
mod args;
mod bencher;
mod clock;
pub mod data;
mod document;
mod error;
mod harness;
mod history;
pub mod insitu;
mod launched;
mod launches;
mod measure;
mod ran;
mod registry;
mod sampler;
mod scratch;
mod simulate;
mod sizes;
mod warmup;

pub use alloc::CountingAllocator;
pub use args::{parse as parse_args, Args, ClockChoice};
pub use bencher::Bencher;
pub use error::{ArgsError, BenchError};
pub use harness::Harness;
pub use registry::Group;
pub use sizes::sizes_across_caches;

/// The design a benchmark declares (`Bencher::design`): its traits and YCSB's presets.
pub mod design {
    pub use plumb_model::quantity::{ByteSize, Duration, Rate};
    pub use plumb_model::{
        ycsb_core, Arrival, Design, Durability, GeneratorPlace, KeyDistribution, Mix, Question,
        SizeDistribution, StateBetweenRuns,
    };
}
/// Re-exported so benchmarks need one import; see `std::hint::black_box`.
pub use std::hint::black_box;
