//! Enemy checks that only an in-process harness can make: dead code, results that differ,
//! suspicious speed-ups, allocation in the timed loop, no steady state, a working set
//! beyond the caches, samples too short, a precision target missed, and noise between
//! identical variants — one file each. They add to the diagnostics the shared analysis
//! already made (precision, outliers, modality, drift), and drop what they make redundant.

mod allocates;
mod dead_code;
mod imprecise;
mod results;
mod short_samples;
mod speedup;
mod warmup;
mod working_set;

use plumb_model::finding::Failed;
use plumb_model::{Benchmark, Diagnostic, DiagnosticCode, ResultDocument, Severity};
use std::collections::BTreeMap;

/// What a group of variants declares about itself, by group name.
#[derive(Debug, Clone, Default)]
pub struct GroupChecks {
    /// Variants must return equal results (compared by their `Debug` form).
    pub same_result: bool,
    /// Variants run identical code: any verdict but "equivalent" is noise.
    pub identical: bool,
}

type Found = BTreeMap<String, Vec<Diagnostic>>;

/// Runs the harness's checks on an analysed document and attaches what they find.
pub fn harness_checks(doc: &mut ResultDocument, groups: &BTreeMap<String, GroupChecks>) {
    let mut found = Found::new();
    let mut add = |name: &str, d: Diagnostic| found.entry(name.to_string()).or_default().push(d);
    for b in &doc.benchmarks {
        for d in benchmark_checks(doc, b) {
            add(&b.name, d);
        }
    }
    for g in groups.iter().filter(|(_, o)| o.same_result).map(|(g, _)| g) {
        let members: Vec<&Benchmark> = doc
            .benchmarks
            .iter()
            .filter(|b| b.name.starts_with(&format!("{g}/")))
            .collect();
        for (name, d) in results::check(&members) {
            add(&name, d);
        }
    }
    for c in &doc.comparisons {
        if let Some(d) = speedup::check(doc, c, groups) {
            add(&c.candidate, d);
        }
    }
    attach(doc, found);
}

/// The harness's checks of one benchmark.
fn benchmark_checks(doc: &ResultDocument, b: &Benchmark) -> Vec<Diagnostic> {
    let Some(info) = b.function() else {
        return Vec::new();
    };
    if let Some(reason) = &info.failure {
        let failed = Failed {
            reason: reason.clone(),
        };
        return vec![Diagnostic::new(Severity::Error, failed)];
    }
    let level = doc.settings.confidence;
    [
        dead_code::check(b, dead_code::one_cycle(doc), level),
        short_samples::check(b, doc),
        imprecise::check(b, info, level),
        allocates::check(b),
        warmup::check(info),
        working_set::check(b, &doc.environment),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Adds what was found to each benchmark's diagnostics and drops what a finding makes
/// redundant.
fn attach(doc: &mut ResultDocument, mut found: Found) {
    for b in &mut doc.benchmarks {
        if let Some(ds) = found.remove(&b.name) {
            b.diagnostics.extend(ds);
            for (finding, redundant) in SUPERSEDES {
                if b.diagnostics.iter().any(|d| d.is(&finding)) {
                    b.diagnostics.retain(|d| !redundant.contains(&d.code()));
                }
            }
        }
    }
}

/// A finding and the diagnostics it makes redundant, from the analysis and the harness
/// alike: symptoms it explains, or its own figure said again.
const SUPERSEDES: [(DiagnosticCode, &[DiagnosticCode]); 2] = [
    // A deleted loop's samples are clock noise around zero: their shape (spread,
    // outliers, modes, drift, interval width), shortness and imprecision describe the
    // clock, and "N× faster, check the work" is the same finding again.
    (
        DiagnosticCode::NothingMeasured,
        &[
            DiagnosticCode::HighCv,
            DiagnosticCode::Outliers,
            DiagnosticCode::Multimodal,
            DiagnosticCode::WideCi,
            DiagnosticCode::Drift,
            DiagnosticCode::ColdStart,
            DiagnosticCode::ColdWarmup,
            DiagnosticCode::ShortSamples,
            DiagnosticCode::Imprecise,
            DiagnosticCode::CheckTheWork,
        ],
    ),
    // `imprecise` gives the interval's width and why sampling stopped there.
    (DiagnosticCode::Imprecise, &[DiagnosticCode::WideCi]),
];

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use plumb_model::quantity::Duration;
    use plumb_model::{BenchmarkKind, FunctionInfo, Invocation, ProducerSettings, Settings};

    pub fn doc_with(b: Benchmark) -> ResultDocument {
        let settings = Settings::default_levels(ProducerSettings::None);
        let mut doc =
            ResultDocument::new("test", Invocation::current(), Default::default(), settings);
        doc.benchmarks.push(b);
        doc
    }

    /// A routine's samples of 1e6 iterations each, `per_op_ns` per operation, with an
    /// empty body of `empty_ns` per call and what the shared analysis would have said.
    pub fn function(name: &str, per_op_ns: &[f64], empty_ns: f64) -> Benchmark {
        let mut b = Benchmark::of_wall_times_per(
            name,
            BenchmarkKind::Function,
            per_op_ns
                .iter()
                .map(|&t| (1_000_000, (t * 1e6).round() as u64)),
        );
        b.set_function(FunctionInfo {
            ops_per_iter: 1,
            empty_body_samples: vec![Duration::from_nanos_f64(empty_ns); 12],
            warmup: true,
            steady_state: true,
            ..Default::default()
        });
        b.diagnostics = [
            DiagnosticCode::HighCv,
            DiagnosticCode::Outliers,
            DiagnosticCode::BusyMachine,
        ]
        .into_iter()
        .map(|code| Diagnostic::recorded(code, Severity::Warning, "from the analysis"))
        .collect();
        b
    }

    pub fn codes(doc: &ResultDocument) -> Vec<String> {
        doc.benchmarks[0]
            .diagnostics
            .iter()
            .map(|d| d.code().to_string())
            .collect()
    }

    #[test]
    fn a_deleted_loop_is_reported_without_the_shape_of_its_clock_noise() {
        // 1e-6 ns per op: far below a cycle at any clock rate.
        let mut doc = doc_with(function("deleted", &[1e-6; 20], 0.3));
        harness_checks(&mut doc, &BTreeMap::new());
        assert_eq!(codes(&doc), ["busy-machine", "nothing-measured"]);
    }

    #[test]
    fn a_real_routine_keeps_what_the_analysis_said() {
        // 5 ns per op, well above a cycle and the 0.3 ns empty body.
        let times: Vec<f64> = (0..20).map(|i| 5.0 + 0.01 * i as f64).collect();
        let mut doc = doc_with(function("real", &times, 0.3));
        harness_checks(&mut doc, &BTreeMap::new());
        assert_eq!(codes(&doc), ["high-cv", "outliers", "busy-machine"]);
    }
}
