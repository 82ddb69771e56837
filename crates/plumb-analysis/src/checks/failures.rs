use plumb_model::{Benchmark, Diagnostic, DiagnosticCode, Severity};

/// Runs that exited non-zero but were kept (`--ignore-failure`).
pub fn check(b: &Benchmark) -> Option<Diagnostic> {
    let failed = b
        .samples
        .iter()
        .filter(|s| s.exit_code.is_some_and(|c| c != 0) || s.signal.is_some())
        .count();
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
