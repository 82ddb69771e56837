//! Each enemy variant is flagged by the check that fits it, and its clean twin is not.
//! Only the enemy-specific codes are asserted: generic noise checks (high CV, drift) may
//! fire on a shared machine and are not what this is about. The enemies no clock decides
//! are a test; those a clock decides are a check bench/enemies.sh runs (ignored here).

// The six enemies are this crate's own experiments, not the library users build.
#[path = "../enemies.rs"]
mod enemies;

use plumb_bench::{Args, CountingAllocator, Harness};
use plumb_model::{DiagnosticCode, ResultDocument, Severity};

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator::system();

fn codes(doc: &ResultDocument, name: &str) -> Vec<DiagnosticCode> {
    doc.benchmark(name)
        .unwrap_or_else(|| panic!("no benchmark {name}"))
        .diagnostics
        .iter()
        .filter(|d| d.severity >= Severity::Warning || d.code() == DiagnosticCode::NoWarmup)
        .map(|d| d.code().clone())
        .collect()
}

fn flagged(doc: &ResultDocument, name: &str, code: DiagnosticCode) -> bool {
    codes(doc, name).contains(&code)
}

/// The enemies (those the regular expressions select, or all) measured into `dir`.
fn measure(data: &enemies::EnemyData, dir: &std::path::Path, only: &[&str]) -> ResultDocument {
    let mut h = Harness::with_args(Args {
        bench: true,
        measure_time: plumb_model::quantity::Duration::from_millis(150),
        // Noisy variants may sample on for precision; bound that to keep the test short.
        max_measure_time: plumb_model::quantity::Duration::from_millis(500),
        sample_count: 40,
        // In this test binary: it cannot be re-executed as a harness.
        launches: 1,
        quiet: true,
        export_json: Some(dir.join("enemies.json")),
        filters: only.iter().map(|s| s.to_string()).collect(),
        regex: !only.is_empty(),
        ..Args::default()
    });
    enemies::register(&mut h, data);
    h.run_to_document().unwrap().expect("a document")
}

/// How far a benchmark's mean is from its baseline's, as a fraction.
fn apart(doc: &ResultDocument, name: &str) -> f64 {
    let c = doc
        .comparisons
        .iter()
        .find(|c| c.candidate == name)
        .unwrap();
    (c.ratio - 1.0).abs()
}

/// The clean variants a slow spell of the machine can mimic an enemy in: the warm memo
/// is no cold start, and the quiet pair of identical copies is within 5 % (a shared
/// machine's own noise puts two sequential measurements of identical code 2–3 % apart).
/// What looks like an enemy in a clean variant, when something does.
fn flagged_when_clean(doc: &ResultDocument) -> Option<String> {
    let warm = "e1_cold_state/memo_warm";
    if flagged(doc, warm, DiagnosticCode::ColdStart) {
        return Some(format!(
            "{warm}: {:?}",
            doc.benchmark(warm).unwrap().diagnostics
        ));
    }
    let quiet = apart(doc, "e3_noise_quiet/copy_b");
    if quiet >= 0.05 {
        return Some(format!("the quiet pair is {:.1} % apart", 100.0 * quiet));
    }
    None
}

/// The enemies whose check reads no clock: allocations counted in the timed loop, a
/// working set against the machine's caches, a cold variant run without warm-up; and the
/// result written. Deterministic on a busy machine.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "the enemies live in optimised code; scripts/test.sh runs this with --release"
)]
fn the_enemies_no_clock_decides_are_flagged_and_their_twins_are_not() {
    let dir = tempfile::tempdir().unwrap();
    let data = enemies::EnemyData::new();
    let doc = measure(&data, dir.path(), &[]);
    // Enemy 1: cold state, measured without warm-up on purpose (its timing: the check
    // run by bench/enemies.sh).
    assert!(flagged(
        &doc,
        "e1_cold_state/memo_cold",
        DiagnosticCode::NoWarmup
    ));
    assert!(!flagged(
        &doc,
        "e1_cold_state/memo_warm",
        DiagnosticCode::NoWarmup
    ));

    // Enemy 2: allocation in the timed loop.
    assert!(flagged(
        &doc,
        "e2_allocation/insert_alloc_heavy",
        DiagnosticCode::Allocates
    ));
    assert!(!flagged(
        &doc,
        "e2_allocation/insert_preallocated",
        DiagnosticCode::Allocates
    ));
    // Nothing else allocates in its timed loop (the cold memo fills as it runs): the
    // harness's own work between samples (precision checks, a growing sample buffer) is
    // not counted against the routine.
    for b in &doc.benchmarks {
        let allowed = [
            "e2_allocation/insert_alloc_heavy",
            "e1_cold_state/memo_cold",
        ];
        if !allowed.contains(&b.name.as_str()) {
            assert!(
                !flagged(&doc, &b.name, DiagnosticCode::Allocates),
                "{}: {:?}",
                b.name,
                codes(&doc, &b.name)
            );
        }
    }
    let heavy = doc.benchmark("e2_allocation/insert_alloc_heavy").unwrap();
    let allocs = heavy
        .stats(&plumb_model::Metric::Allocations)
        .expect("allocations are counted per sample")
        .summary
        .mean;
    assert!(
        (allocs - 1.0).abs() < 0.01,
        "one Vec per insert, got {allocs}"
    );

    // Enemy 4: working set beyond the last-level cache.
    let cache: Vec<&str> = doc
        .benchmarks
        .iter()
        .filter(|b| b.name.starts_with("e4_cache/"))
        .map(|b| b.name.as_str())
        .collect();
    assert_eq!(cache.len(), 2);
    assert!(!flagged(&doc, cache[0], DiagnosticCode::WorkingSet));
    assert!(flagged(&doc, cache[1], DiagnosticCode::WorkingSet));

    // The result was written and reads back as a plumb result.
    let text = std::fs::read_to_string(dir.path().join("enemies.json")).unwrap();
    let back = ResultDocument::from_json(&text).unwrap();
    assert_eq!(back.benchmarks.len(), doc.benchmarks.len());
    assert!(back.clock.is_some());
}

/// The enemies a clock decides — a cold start, noise from busy cores against a quiet pair
/// of identical copies, sorted data far faster than shuffled, a loop the compiler deleted
/// — need real timing differences to show, so this is not a test: bench/enemies.sh runs
/// it (on an idle machine, and with CPU hogs) and keeps what it found.
#[test]
#[ignore = "judges real timings: bench/enemies.sh runs it and keeps its figures"]
fn the_enemies_a_clock_decides_show_on_this_machine() {
    let dir = tempfile::tempdir().unwrap();
    let data = enemies::EnemyData::new();
    let doc = measure(&data, dir.path(), &[]);
    // A slow spell of this shared machine (the host changes a core's speed for 0.1 s to
    // seconds) at the start of the warm memo's samples looks exactly like a cold start,
    // and during one of the quiet copies like noise. Those two clean variants, and only
    // they, are measured once more before the check fails; both results are reported.
    if let Some(first) = flagged_when_clean(&doc) {
        let again = measure(&data, dir.path(), &["^e1_cold_state/", "^e3_noise_quiet/"]);
        if let Some(second) = flagged_when_clean(&again) {
            panic!("flagged twice: {first} / then: {second}");
        }
    }

    // Enemy 1: cold state.
    let cold = "e1_cold_state/memo_cold";
    assert!(
        flagged(&doc, cold, DiagnosticCode::ColdStart)
            || flagged(&doc, cold, DiagnosticCode::Drift),
        "{:?}",
        codes(&doc, cold)
    );

    // Enemy 3: identical code under load is told apart from identical code at rest.
    assert!(flagged(
        &doc,
        "e3_noise_loaded/copy_b_with_busy_cores",
        DiagnosticCode::Noise
    ));
    // Busy cores stand far above the 5 % the quiet pair may differ by.
    let loaded = apart(&doc, "e3_noise_loaded/copy_b_with_busy_cores");
    assert!(
        loaded > 0.15,
        "loaded {loaded}: {:?}",
        codes(&doc, "e3_noise_loaded/copy_b_with_busy_cores")
    );

    // Enemy 5: sorted data trains the branch predictor: same result, far faster.
    assert!(flagged(
        &doc,
        "e5_branch/scan_sorted",
        DiagnosticCode::CheckTheWork
    ));
    assert!(!flagged(
        &doc,
        "e5_branch/scan_shuffled",
        DiagnosticCode::CheckTheWork
    ));
    assert!(!flagged(
        &doc,
        "e5_branch/scan_sorted",
        DiagnosticCode::WrongResult
    ));

    // Enemy 6: the dropped result lets the compiler delete the loop.
    assert!(flagged(
        &doc,
        "e6_dead_code/checksum_dropped",
        DiagnosticCode::NothingMeasured
    ));
    // "N× faster, check the work" would be the same finding again.
    assert!(!flagged(
        &doc,
        "e6_dead_code/checksum_dropped",
        DiagnosticCode::CheckTheWork
    ));
    // A deleted loop also makes samples short; that symptom is not reported as a cause.
    assert!(!flagged(
        &doc,
        "e6_dead_code/checksum_dropped",
        DiagnosticCode::ShortSamples
    ));
    assert!(!flagged(
        &doc,
        "e6_dead_code/checksum_returned",
        DiagnosticCode::NothingMeasured
    ));
}
