//! Version-1 documents written by plumb 0.1 (kept in `fixtures/`) are read, migrated to
//! the current version, and say so.

use plumb_model::{
    Aggregate, DiagnosticCode, Exit, Metric, ProducerSettings, ResultDocument, VerdictReason,
};

fn read(name: &str) -> ResultDocument {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    ResultDocument::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn a_command_run_keeps_every_sample_and_its_correction() {
    let doc = read("run-v1.json");
    assert_eq!(doc.migrated_from, Some(1));
    assert_eq!(doc.format_version, plumb_model::FORMAT_VERSION);
    assert!(matches!(
        doc.settings.producer,
        ProducerSettings::Version1 { .. }
    ));
    let b = &doc.benchmarks[0];
    assert_eq!(b.samples.len(), 12);
    assert_eq!(b.warmup.len(), 1);
    for m in [
        Metric::WallTime,
        Metric::UserTime,
        Metric::SystemTime,
        Metric::PeakRss,
    ] {
        assert_eq!(b.samples.values(&m).map(<[u64]>::len), Some(12), "{m}");
    }
    assert_eq!(b.metrics[&Metric::PeakRss].aggregate, Aggregate::Peak);
    assert!(b.samples.exits().iter().all(|e| *e == Exit::Code(0)));
    // The shell correction applies to wall time, and the statistics were kept.
    let c = b.correction(&Metric::WallTime).expect("shell correction");
    assert!(c.value > 0.0 && c.reason.contains("sh -c ''"), "{c:?}");
    let mean = b.time().unwrap().summary.mean;
    let recomputed = b.times_ns().iter().sum::<f64>() / 12.0;
    assert!(
        (mean - recomputed).abs() < 1e-6 * mean.abs(),
        "{mean} vs {recomputed}"
    );
    // Peak RSS was KiB; now bytes.
    assert!(b.samples.values(&Metric::PeakRss).unwrap()[0].is_multiple_of(1024));
}

#[test]
fn verdict_sentences_become_reasons() {
    let doc = read("run2-v1.json");
    let c = &doc.comparisons[0];
    assert_eq!(c.metric, Metric::WallTime);
    assert!(
        !matches!(c.reason, VerdictReason::Unjudged),
        "{:?}",
        c.reason
    );
    let doc = read("inprocess-v1.json");
    let c = &doc.comparisons[0];
    assert_eq!(
        c.reason,
        VerdictReason::BeyondSesoi {
            constant_samples: false
        }
    );
    assert!(c.hodges_lehmann.is_finite());
}

#[test]
fn an_in_process_run_keeps_iterations_and_function_info() {
    let doc = read("inprocess-v1.json");
    let b = doc.benchmark("e6_dead_code/checksum_dropped").unwrap();
    assert_eq!(b.samples.len(), 500);
    assert!(b.samples.iterations().iter().all(|&n| n > 1));
    assert!(b
        .diagnostics
        .iter()
        .any(|d| d.code() == DiagnosticCode::NothingMeasured));
    let heavy = doc.benchmark("e2_allocation/insert_alloc_heavy").unwrap();
    assert!(heavy
        .diagnostics
        .iter()
        .any(|d| d.code() == DiagnosticCode::Allocates));
    assert!(heavy.function().unwrap().warmup_time.as_nanos() > 0);
    assert!(doc.clock.is_some());
}

#[test]
fn a_load_run_is_read() {
    let doc = read("load-v1.json");
    let l = doc.benchmarks[0].load().unwrap();
    assert_eq!(l.ok, 200);
    assert!(l.latency.histogram().unwrap().len() == 200);
}

#[test]
fn a_migrated_document_is_written_as_the_current_version_and_reads_back_unchanged() {
    let doc = read("run-v1.json");
    let text = doc.to_json();
    let current = format!("\"format_version\": {}", plumb_model::FORMAT_VERSION);
    assert!(text.contains(&current));
    let back = ResultDocument::from_json(&text).unwrap();
    assert_eq!(back.migrated_from, None);
    assert_eq!(back.benchmarks, doc.benchmarks);
}
