//! What one benchmark's run produced, between the harness that runs it and the document
//! that records it.
use crate::bencher::Measured;
use plumb_model::quantity::ByteSize;

/// What became of one benchmark.
pub(crate) enum BenchOutcome {
    Measured(Box<Measured>),
    Failed(String),
}

/// One benchmark's run: its outcome, its result's text (for the same-result check), its
/// working set and declared design.
pub(crate) struct Ran {
    pub outcome: BenchOutcome,
    pub result: Option<String>,
    pub working_set: Option<ByteSize>,
    pub design: Option<Box<plumb_model::Design>>,
}
