//! The failed-runs check: runs that exited non-zero but were kept (`--ignore-failure`).
use plumb_model::finding::FailedRuns;
use plumb_model::{Benchmark, Diagnostic, Severity};

/// Runs that exited non-zero but were kept (`--ignore-failure`).
pub fn check(b: &Benchmark) -> Option<Diagnostic> {
    let failed = b.samples.exits().iter().filter(|e| !e.success()).count();
    (failed > 0).then(|| {
        Diagnostic::new(
            Severity::Warning,
            FailedRuns {
                failed,
                runs: b.samples.len(),
            },
        )
    })
}
