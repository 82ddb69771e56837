//! The gates a load result is held to, decided by the analysis and attached once for a
//! test, a merge and a coordinated test alike; and how a test ended, which the CLI turns
//! into its exit code.
use plumb_analysis::{load_checks, LoadGates, LATE_P99};
use plumb_model::{
    Benchmark, Diagnostic, DiagnosticCode, LoadSettings, ResultDocument, RunStatus, Severity,
};

/// How a load test (or a merge of agents' tests) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Every gate held (and a second target was not slower).
    Done,
    /// A gate failed (errors, a late generator) or a second target was slower.
    GateFailed,
    /// Nothing succeeded, a run could not start, or an agent's share is missing.
    Failed,
    /// Stopped by a signal; what was measured before it is kept.
    Stopped,
}

/// The gates the settings ask for (the defaults for what an older result does not say).
pub fn gates_of(s: &LoadSettings) -> LoadGates {
    LoadGates {
        max_error_rate: s.max_error_rate.unwrap_or(0.0),
        allow_late: s.allow_late,
        max_lateness: s.max_lateness.unwrap_or(LATE_P99),
    }
}

/// The gates' findings on a test's benchmarks: all of them on the first (the whole, or
/// the one target); on a mix's targets only which of their requests failed, as warnings.
pub fn attach_gates(benchmarks: &mut [Benchmark], gates: LoadGates) {
    for (k, b) in benchmarks.iter_mut().enumerate() {
        let Some(load) = b.load() else { continue };
        let checks = load_checks(load, gates);
        if k == 0 {
            b.diagnostics.extend(checks);
        } else {
            b.diagnostics.extend(target_findings(checks));
        }
    }
}

/// A mix's target: which of its requests failed, said as warnings (the whole's own
/// findings, over every target, decide the exit code); the generator's and the
/// connections' findings are the whole's, not repeated per target.
fn target_findings(checks: Vec<Diagnostic>) -> Vec<Diagnostic> {
    checks
        .into_iter()
        .filter(|d| {
            matches!(
                d.code(),
                DiagnosticCode::NothingSucceeded | DiagnosticCode::LoadErrors
            )
        })
        .map(|mut d| {
            d.severity = d.severity.min(Severity::Warning);
            d
        })
        .collect()
}

/// Stopped by a signal; nothing succeeded, a run that could not start or a share
/// missing (the status `Failed`): failed, like a failing benchmark; a failed gate or a
/// second target `slower` than the first: the gate failed.
pub fn ended(doc: &ResultDocument, slower: bool) -> Ended {
    let diagnostics = || doc.benchmarks.iter().flat_map(|b| &b.diagnostics);
    let nothing = diagnostics()
        .any(|d| d.code() == DiagnosticCode::NothingSucceeded && d.severity == Severity::Error);
    match doc.status {
        RunStatus::Interrupted { .. } => Ended::Stopped,
        RunStatus::Failed { .. } => Ended::Failed,
        RunStatus::Complete if nothing => Ended::Failed,
        RunStatus::Complete if slower || diagnostics().any(|d| d.severity == Severity::Error) => {
            Ended::GateFailed
        }
        RunStatus::Complete => Ended::Done,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_load::LatencyHistogram;
    use plumb_model::quantity::Duration;
    use plumb_model::{
        BenchmarkKind, Invocation, LatencyDistribution, LoadInfo, ProducerSettings, Settings,
    };

    /// A load benchmark of `ok` answers of 100 µs and `errors` refused connections.
    fn load(ok: u64, errors: u64) -> Benchmark {
        let mut h = LatencyHistogram::new();
        for _ in 0..ok {
            h.record_us(100.0);
        }
        let info = LoadInfo {
            target_rate: Some(100.0),
            achieved_rate: ok as f64 / 10.0,
            duration: Duration::from_secs(10),
            errors: [("connect".to_string(), errors)]
                .into_iter()
                .filter(|e| e.1 > 0)
                .collect(),
            due: ok + errors,
            ..LoadInfo::answered(LatencyDistribution::from_histogram(h.inner()))
        };
        let mut b = Benchmark::new("http://127.0.0.1/", BenchmarkKind::Load);
        b.set_load(info);
        b
    }

    fn doc(benchmarks: Vec<Benchmark>) -> ResultDocument {
        let settings = Settings::default_levels(ProducerSettings::None);
        let mut doc =
            ResultDocument::new("test", Invocation::current(), Default::default(), settings);
        doc.benchmarks = benchmarks;
        attach_gates(&mut doc.benchmarks, LoadGates::default());
        doc
    }

    #[test]
    fn a_clean_test_is_done_and_a_slower_second_target_fails_the_gate() {
        let d = doc(vec![load(1000, 0)]);
        assert_eq!(ended(&d, false), Ended::Done);
        assert_eq!(ended(&d, true), Ended::GateFailed);
    }

    #[test]
    fn errors_above_the_limit_fail_the_gate_and_nothing_answered_fails_the_test() {
        assert_eq!(ended(&doc(vec![load(1000, 5)]), false), Ended::GateFailed);
        assert_eq!(ended(&doc(vec![load(0, 5)]), false), Ended::Failed);
    }

    #[test]
    fn a_mix_target_s_errors_are_warnings_the_whole_decides() {
        let d = doc(vec![load(1000, 0), load(0, 5)]);
        let target = &d.benchmarks[1].diagnostics;
        assert!(!target.is_empty());
        assert!(target.iter().all(|x| x.severity <= Severity::Warning));
        assert_eq!(ended(&d, false), Ended::Done);
    }

    #[test]
    fn a_stop_or_a_broken_series_ends_it_whatever_the_gates_say() {
        let mut d = doc(vec![load(1000, 5)]);
        d.status = RunStatus::Interrupted { signal: None };
        assert_eq!(ended(&d, true), Ended::Stopped);
        d.status = RunStatus::Failed {
            message: "run 2 of 2 failed".into(),
        };
        assert_eq!(ended(&d, false), Ended::Failed);
    }
}
