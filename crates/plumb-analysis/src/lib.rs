//! Turns raw samples into statistics, enemy checks and verdicts. Reads and writes the
//! result model only; no I/O.

mod benchmark;
mod checks;
mod compare;
mod environment;
mod explain;
mod load_compare;
mod replicates;
mod verdict;

pub use benchmark::{
    analyse_benchmark, analyse_document, complete_statistics, metric_stats, AnalysisConfig,
};
pub use compare::{compare_documents, Judging, Side};
pub use environment::environment_diagnostics;
pub use explain::compare_explained;
pub use load_compare::compare_load;
pub use replicates::{replicates, BATCHES};
pub use verdict::compare;
