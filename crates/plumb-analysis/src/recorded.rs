//! A saved result's statistics as it is read back: completed where they are missing, and
//! checked against its own samples — a file edited by hand, or written by a broken
//! producer, must not have its recorded mean shown over the samples that say otherwise.
use crate::benchmark::{analyse_document, judge_groups, metric_stats, simulated_stats};
use crate::AnalysisConfig;
use plumb_model::{format, Diagnostic, DiagnosticCode, Metric, ResultDocument, Severity};

/// Statistics for a document read from disk: a result without any (another tool's
/// export) is analysed at its own confidence and SESOI; an analysed one keeps what was
/// saved, the checks its producer made included, and a metric without statistics (a
/// migrated version-1 result kept only wall time's) gets them. Statistics its samples
/// contradict are recomputed and its verdicts judged again: what is returned says so.
#[must_use = "the notes say which recorded statistics were not the samples'"]
pub fn complete_statistics(doc: &mut ResultDocument) -> Vec<String> {
    let cfg = AnalysisConfig {
        question: doc.settings.question,
        ..AnalysisConfig::new(doc.settings.confidence, doc.settings.sesoi)
    };
    let unanalysed = doc
        .benchmarks
        .iter()
        .any(|b| b.load().is_none() && !b.samples.is_empty() && b.stats.is_empty());
    let mut notes = Vec::new();
    if unanalysed {
        analyse_document(doc, &cfg);
    } else {
        notes = recompute_contradicted(doc);
        if !notes.is_empty() {
            judge_groups(doc, &cfg);
        }
        fill_missing_stats(doc);
    }
    said_failed(doc);
    notes
}

/// An analysed result's statistics that are missing (a metric a migrated result kept no
/// statistics of, a simulation's), completed.
fn fill_missing_stats(doc: &mut ResultDocument) {
    let level = doc.settings.confidence.get();
    for b in &mut doc.benchmarks {
        let missing: Vec<Metric> = b
            .metrics
            .keys()
            .filter(|m| !b.stats.contains_key(*m))
            .cloned()
            .collect();
        for m in missing {
            if let Some(s) = metric_stats(b, &m, level) {
                b.stats.insert(m, s);
            }
        }
        if let Some(sim) = b.simulated.as_mut().filter(|s| s.stats.is_empty()) {
            sim.stats = simulated_stats(sim, level);
        }
    }
}

/// A function benchmark that failed (an import's, whose producer ran no harness checks)
/// says so, as plumb-bench's own failures do, instead of whatever its missing samples
/// would raise.
fn said_failed(doc: &mut ResultDocument) {
    for b in &mut doc.benchmarks {
        let Some(reason) = b.function().and_then(|f| f.failure.clone()) else {
            continue;
        };
        if !b
            .diagnostics
            .iter()
            .any(|d| d.code() == DiagnosticCode::Failed)
        {
            let failed = plumb_model::finding::Failed { reason };
            b.diagnostics = vec![Diagnostic::new(Severity::Error, failed)];
        }
    }
}

/// How far a recorded mean or median may be from the samples' and still be theirs: a
/// JSON round trip keeps an f64 exactly, so anything beyond rounding is another figure.
const SAME: f64 = 1e-9;

/// Replaces every recorded statistic its samples contradict (their count, mean or
/// median) with the samples' own, and says which, with both figures.
pub fn recompute_contradicted(doc: &mut ResultDocument) -> Vec<String> {
    let level = doc.settings.confidence.get();
    let mut notes = Vec::new();
    for b in &mut doc.benchmarks {
        if b.load().is_some() || b.samples.is_empty() {
            continue;
        }
        let metrics: Vec<_> = b.stats.keys().cloned().collect();
        for m in metrics {
            let Some(fresh) = metric_stats(b, &m, level) else {
                continue;
            };
            let kept = &b.stats[&m].summary;
            let differs = |a: f64, b: f64| (a - b).abs() > SAME * a.abs().max(b.abs());
            let contradicted = kept.n != fresh.summary.n
                || differs(kept.mean, fresh.summary.mean)
                || differs(kept.median, fresh.summary.median);
            if !contradicted {
                continue;
            }
            let unit = format::unit_of(b, &m);
            notes.push(format!(
                "{}: its recorded {m} (mean {}, n {}) is not its samples' (mean {}, n {}): shown are the statistics of its samples, and its verdicts judged again",
                b.name,
                format::value(unit, kept.mean),
                kept.n,
                format::value(unit, fresh.summary.mean),
                fresh.summary.n,
            ));
            b.stats.insert(m, fresh);
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{analyse_document, AnalysisConfig};
    use plumb_model::quantity::{Confidence, Fraction};
    use plumb_model::{Benchmark, BenchmarkKind, Metric};

    #[test]
    fn a_recorded_mean_its_samples_contradict_is_replaced_and_said() {
        let mut doc = plumb_model::ResultDocument::new(
            "0",
            plumb_model::Invocation {
                argv: vec![],
                cwd: None,
            },
            Default::default(),
            plumb_model::Settings {
                confidence: Confidence::DEFAULT,
                sesoi: Fraction::DEFAULT_SESOI,
                question: Default::default(),
                producer: plumb_model::ProducerSettings::Imported { tool: "t".into() },
            },
        );
        let times = [1000, 1010, 990, 1005, 995];
        doc.benchmarks
            .push(Benchmark::of_wall_times("a", BenchmarkKind::Command, times));
        let cfg = AnalysisConfig::new(Confidence::DEFAULT, Fraction::DEFAULT_SESOI);
        analyse_document(&mut doc, &cfg);
        assert!(recompute_contradicted(&mut doc).is_empty());
        let stats = doc.benchmarks[0].stats.get_mut(&Metric::WallTime).unwrap();
        stats.summary.mean = 5.0;
        let notes = recompute_contradicted(&mut doc);
        assert_eq!(
            notes,
            ["a: its recorded wall-time (mean 5.000 ns, n 5) is not its samples' (mean 1.000 µs, n 5): shown are the statistics of its samples, and its verdicts judged again"]
        );
        assert_eq!(
            doc.benchmarks[0].stats[&Metric::WallTime].summary.mean,
            1000.0
        );
    }
}
