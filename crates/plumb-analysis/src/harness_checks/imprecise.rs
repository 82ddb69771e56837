//! The precision check: sampling reached a cap before the mean was pinned down to the
//! target — the times vary too much for it, within samples or (what the batch-means
//! interval sees and the ordinary one would not) over the run.
use plumb_model::finding::Imprecise;
use plumb_model::quantity::{Confidence, Duration};
use plumb_model::{Benchmark, Diagnostic, FunctionInfo, Metric, PrecisionStop, Severity};

pub fn check(b: &Benchmark, info: &FunctionInfo, level: Confidence) -> Option<Diagnostic> {
    let (target, error) = (info.target_error?, info.batch_means_error?);
    if error <= target.get() {
        return None;
    }
    let walls = b.samples.values(&Metric::WallTime).unwrap_or_default();
    let finding = Imprecise {
        stop: info.precision_stop.unwrap_or(PrecisionStop::TimeCap),
        spent: Duration::from_nanos(walls.iter().sum::<u64>()),
        error,
        target,
        level,
    };
    Some(Diagnostic::new(Severity::Warning, finding))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{codes, doc_with, function};
    use super::super::{harness_checks, GroupChecks};
    use plumb_model::quantity::Fraction;
    use plumb_model::{Benchmark, Diagnostic, DiagnosticCode, Finding, Severity};
    use std::collections::BTreeMap;

    fn with_precision(mut b: Benchmark, target: f64, error: f64) -> Benchmark {
        let info = b.function_mut().unwrap();
        info.target_error = Fraction::new(target);
        info.batch_means_error = Some(error);
        b
    }

    #[test]
    fn a_target_missed_at_the_cap_is_reported_with_its_figures() {
        let times: Vec<f64> = (0..20).map(|i| 5.0 + 0.01 * i as f64).collect();
        let mut b = with_precision(function("real", &times, 0.3), 0.02, 0.05);
        b.diagnostics.push(Diagnostic::recorded(
            DiagnosticCode::WideCi,
            Severity::Warning,
            "±5.0%",
        ));
        let mut doc = doc_with(b);
        let none = BTreeMap::<String, GroupChecks>::new();
        harness_checks(&mut doc, &none);
        // The width is said once, by the diagnostic that also says why sampling stopped.
        assert!(
            !codes(&doc).contains(&"wide-ci".into()),
            "{:?}",
            codes(&doc)
        );
        let f = doc.benchmarks[0]
            .diagnostics
            .iter()
            .find_map(|d| match &d.finding {
                Finding::Imprecise(f) => Some(f),
                _ => None,
            })
            .expect("imprecise");
        assert_eq!((f.error, f.target.get()), (0.05, 0.02));
        // 20 samples of 1e6 iterations at 5.0–5.19 ns: 101.9 ms.
        assert_eq!(f.spent.as_nanos(), 101_900_000);

        for (name, times, error) in [
            ("met", times.clone(), 0.019),
            ("deleted", vec![1e-6; 20], 0.5),
        ] {
            let mut doc = doc_with(with_precision(function(name, &times, 0.3), 0.02, error));
            harness_checks(&mut doc, &none);
            assert!(
                !codes(&doc).contains(&"imprecise".into()),
                "{name}: {:?}",
                codes(&doc)
            );
        }
    }
}
