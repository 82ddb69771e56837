//! The failed-runs check: runs that exited non-zero but were kept (`--ignore-failure`).
use plumb_model::{Benchmark, Diagnostic, DiagnosticCode, Severity};

/// Runs that exited non-zero but were kept (`--ignore-failure`).
pub fn check(b: &Benchmark) -> Option<Diagnostic> {
    let failed = b.samples.exits().iter().filter(|e| !e.success()).count();
    (failed > 0).then(|| {
        Diagnostic::new(
            DiagnosticCode::FailedRuns,
            Severity::Warning,
            format!(
                "{failed} of {} runs failed and were measured anyway",
                b.samples.len()
            ),
        )
        .evidence("failed_runs", failed)
        .advice(
            "a failing command may skip its work; check that it fails for the reason you expect",
        )
    })
}
