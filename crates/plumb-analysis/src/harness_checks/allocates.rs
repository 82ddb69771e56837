//! The allocation check: allocations counted inside the timed loop, per operation.
use plumb_model::finding::Allocates;
use plumb_model::{Benchmark, Diagnostic, Metric, Severity};

pub fn check(b: &Benchmark) -> Option<Diagnostic> {
    let per_op = |m: &Metric| b.stats(m).map(|s| s.summary.mean);
    let allocations_per_op = per_op(&Metric::Allocations).filter(|&a| a > 0.0)?;
    let finding = Allocates {
        allocations_per_op,
        bytes_per_op: per_op(&Metric::AllocatedBytes).unwrap_or(0.0),
    };
    Some(Diagnostic::new(Severity::Warning, finding))
}
