//! A load test as library calls, above the load producer and the analysis: a test's
//! targets run in turn and made a document whose gates the analysis decides (`test`,
//! `gates`, `capacity`), agents' results merged into one test once the analysis has
//! said they make one (`merged`), and a coordinated test's result from what its agents
//! sent (`coordinated`). The CLI's `load`, `merge` and `coordinate` are their front
//! door; how each ended (`Ended`) is decided here once.

mod capacity;
pub mod coordinated;
mod error;
mod gates;
mod merged;
mod start;
mod test;

pub use capacity::capacity_check;
pub use error::LoadTestError;
pub use gates::{attach_gates, ended, gates_of, Ended};
pub use merged::merged_document;
pub use start::{check_start, FURTHEST_START};
pub use test::{run, LoadTest, Tested};
