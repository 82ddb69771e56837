//! The harness end to end, through its public API: failures are contained, result checks
//! bite, filters are exact, and nothing is lost.

use plumb_bench::{black_box, Args, Harness};
use plumb_model::DiagnosticCode;
use plumb_model::Severity;

fn quick(dir: &std::path::Path, filters: &[&str]) -> Args {
    Args {
        bench: true,
        measure_time: plumb_model::quantity::Duration::from_millis(20),
        sample_count: 10,
        warmup_cap: plumb_model::quantity::Duration::from_millis(200),
        // In this test binary: it cannot be re-executed as a harness.
        launches: 1,
        quiet: true,
        filters: filters.iter().map(|s| s.to_string()).collect(),
        export_json: Some(dir.join("r.json")),
        ..Args::default()
    }
}

#[test]
fn a_panicking_benchmark_fails_alone_and_the_rest_are_saved() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::with_args(quick(dir.path(), &[]));
    h.bench("before", |b| b.iter(|| black_box(1u64) + 1));
    h.bench("boom", |_| panic!("setup exploded"));
    h.bench("after", |b| b.iter(|| black_box(2u64) * 3));
    let doc = h.run_to_document().unwrap().unwrap();
    let boom = doc.benchmark("boom").unwrap();
    let failure = boom.function().unwrap().failure.as_deref().unwrap();
    assert!(failure.contains("setup exploded"), "{failure}");
    assert!(boom
        .diagnostics
        .iter()
        .any(|d| d.code() == DiagnosticCode::Failed && d.severity == Severity::Error));
    for name in ["before", "after"] {
        assert!(
            doc.benchmark(name).unwrap().samples.len() >= 10,
            "{name} measured"
        );
    }
    let saved = std::fs::read_to_string(dir.path().join("r.json")).unwrap();
    assert_eq!(
        plumb_model::ResultDocument::from_json(&saved)
            .unwrap()
            .benchmarks
            .len(),
        3
    );
}

#[test]
fn same_result_catches_a_variant_that_computes_something_else() {
    let dir = tempfile::tempdir().unwrap();
    let data: Vec<u32> = (0..1000).collect();
    let mut h = Harness::with_args(quick(dir.path(), &[]));
    h.group("sum")
        .same_result()
        .baseline("right", |b| {
            b.iter_checked(|| black_box(&data).iter().map(|&x| x as u64).sum::<u64>())
        })
        .bench("off_by_one", |b| {
            b.iter_checked(|| {
                black_box(&data)
                    .iter()
                    .skip(1)
                    .map(|&x| x as u64 + 1)
                    .sum::<u64>()
            })
        })
        .bench("unchecked", |b| b.iter(|| black_box(&data).len()));
    let doc = h.run_to_document().unwrap().unwrap();
    let wrong = &doc.benchmark("sum/off_by_one").unwrap().diagnostics;
    let d = wrong
        .iter()
        .find_map(|d| match &d.finding {
            plumb_model::Finding::WrongResult(w) => Some(w),
            _ => None,
        })
        .expect("flagged");
    // 0 + 1 + … + 999 = 499500; the off-by-one variant adds 1 to each of 1..999.
    assert_eq!(
        (d.result.as_str(), d.expected.as_str()),
        ("500499", "499500")
    );
    assert_eq!(d.reference, "sum/right");
    let unchecked = &doc.benchmark("sum/unchecked").unwrap().diagnostics;
    assert!(unchecked
        .iter()
        .any(|d| d.code() == DiagnosticCode::ResultUnchecked));
    assert!(!doc
        .benchmark("sum/right")
        .unwrap()
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error));
}

#[test]
fn filters_are_exact_unless_regex_and_unknown_ones_list_the_names() {
    let dir = tempfile::tempdir().unwrap();
    let mk = |args: Args| {
        let mut h = Harness::with_args(args);
        h.group("sm")
            .bench("state_machine_16", |b| b.iter(|| black_box(16)))
            .bench("state_machine_16384", |b| b.iter(|| black_box(16384)));
        h.run_to_document()
    };
    let doc = mk(quick(dir.path(), &["sm/state_machine_16"]))
        .unwrap()
        .unwrap();
    let names: Vec<_> = doc.benchmarks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["sm/state_machine_16"]);
    // Without the `regex` feature `--regex` is refused by the parser (args.rs' tests).
    if cfg!(feature = "regex") {
        let doc = mk(Args {
            regex: true,
            ..quick(dir.path(), &["state_machine_16"])
        })
        .unwrap()
        .unwrap();
        assert_eq!(doc.benchmarks.len(), 2);
    }
    let err = mk(quick(dir.path(), &["state_machine"]))
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("no benchmark matches") && err.contains("sm/state_machine_16384"),
        "{err}"
    );
}

#[test]
fn test_mode_runs_each_routine_once_without_measuring() {
    let mut calls = 0u32;
    {
        let mut h = Harness::with_args(Args::default());
        h.bench("once", |b| b.iter(|| calls += 1));
        assert!(h.run_to_document().unwrap().is_none());
    }
    assert_eq!(calls, 1);
}

#[test]
fn duplicate_names_and_zero_ops_are_refused_clearly() {
    let mut h = Harness::with_args(Args::default());
    h.bench("twin", |b| b.iter(|| 1));
    h.bench("twin", |b| b.iter(|| 2));
    let e = h.run_to_document().err().unwrap();
    assert!(matches!(&e, plumb_bench::BenchError::DuplicateName(n) if n == "twin"));
    assert!(e.to_string().contains("two benchmarks are named \"twin\""));

    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::with_args(quick(dir.path(), &[]));
    h.bench("zero", |b| {
        b.ops_per_iter(0).iter(|| 1);
    });
    let doc = h.run_to_document().unwrap().unwrap();
    let f = doc.benchmark("zero").unwrap().function().unwrap();
    assert!(f
        .failure
        .as_deref()
        .unwrap()
        .contains("ops_per_iter must be at least 1"));
}

#[test]
fn per_iteration_setup_is_not_timed() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::with_args(quick(dir.path(), &[]));
    // Setup sleeps 50 µs per input; the routine is trivial. If setup were timed, a
    // per-op figure would be at least 50 µs.
    h.bench("batched", |b| {
        b.iter_batched(
            || {
                std::thread::sleep(std::time::Duration::from_micros(50));
                black_box(7u64)
            },
            |x| x * 2,
        )
    });
    let doc = h.run_to_document().unwrap().unwrap();
    let median = doc
        .benchmark("batched")
        .unwrap()
        .time()
        .unwrap()
        .summary
        .median;
    assert!(
        median < 10_000.0,
        "per-op median {median} ns includes setup"
    );
}

#[test]
fn delta_timing_records_the_fixed_cost_as_a_correction() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::with_args(Args {
        delta: true,
        ..quick(dir.path(), &[])
    });
    h.bench("sum", |b| b.iter(|| (0..black_box(64u64)).sum::<u64>()));
    let doc = h.run_to_document().unwrap().unwrap();
    let b = doc.benchmark("sum").unwrap();
    let c = b
        .correction(&plumb_model::Metric::WallTime)
        .expect("a correction");
    assert!(c.reason.contains("delta timing"), "{}", c.reason);
    match &doc.settings.producer {
        plumb_model::ProducerSettings::InProcess(s) => assert!(s.delta),
        other => panic!("{other:?}"),
    }
}

#[test]
fn quick_preset_is_shorter_than_the_default() {
    let q = plumb_bench::parse_args(&["--quick".to_string()]).unwrap();
    let d = Args::default();
    assert!(q.measure_time < d.measure_time && q.warmup_cap < d.warmup_cap);
}

/// `--counters`: the kernel's software events, read around each measured sample only.
/// A routine that maps, touches and unmaps 1 MiB (so every call takes fresh pages) takes 256 page faults per operation; the 32 MiB its setup
/// touches first are in no sample; a routine touching nothing takes none.
#[test]
fn counters_are_read_around_measured_samples_only() {
    if !plumb_counters::availability()
        .software
        .iter()
        .any(|e| e == "page-faults")
    {
        plumb_testkit::skip("software events do not open here");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::with_args(Args {
        counters: Some(plumb_counters::plan::CounterMode::Auto),
        ..quick(dir.path(), &[])
    });
    h.bench("fresh-pages", |b| {
        let setup = vec![1u8; 32 << 20];
        black_box(&setup);
        b.iter(|| {
            // SAFETY: a private anonymous mapping, written within its length, unmapped.
            unsafe {
                let p = libc::mmap(
                    std::ptr::null_mut(),
                    1 << 20,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                ) as *mut u8;
                assert_ne!(p as *mut libc::c_void, libc::MAP_FAILED);
                for page in 0..256 {
                    p.add(page * 4096).write_volatile(1);
                }
                libc::munmap(p.cast(), 1 << 20);
            }
        })
    });
    h.bench("nothing-touched", |b| b.iter(|| black_box(1u64) + 1));
    let doc = h.run_to_document().unwrap().unwrap();
    let faults = |name: &str| {
        let b = doc.benchmark(name).unwrap();
        assert_eq!(
            b.metrics[&plumb_model::Metric::PageFaults].source,
            plumb_model::Source::SoftwareCounter
        );
        b.stats(&plumb_model::Metric::PageFaults)
            .unwrap()
            .summary
            .mean
    };
    let fresh = faults("fresh-pages");
    assert!((250.0..270.0).contains(&fresh), "{fresh} faults per op");
    assert!(faults("nothing-touched") < 0.01);
}

/// A benchmark's declared design is recorded in the result and its red flags are among
/// its findings; a benchmark that declares nothing gets none of them.
#[test]
fn a_declared_design_is_recorded_and_checked() {
    use plumb_bench::design::*;
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::with_args(quick(dir.path(), &[]));
    h.bench("lazy", |b| {
        b.design(Design {
            keys: Some(KeyDistribution::Sequential),
            threads: Some(1),
            durability: Some(Durability::None),
            ..ycsb_core('a').unwrap()
        })
        .iter(|| black_box(1u64) + 1)
    });
    h.bench("plain", |b| b.iter(|| black_box(2u64) * 3));
    let doc = h.run_to_document().unwrap().unwrap();
    let lazy = doc.benchmark("lazy").unwrap();
    assert_eq!(
        lazy.design.as_ref().unwrap().preset.as_deref(),
        Some("ycsb-a")
    );
    let codes: Vec<String> = lazy
        .diagnostics
        .iter()
        .map(|d| d.code().to_string())
        .collect();
    for code in [
        "working-set-in-cache",
        "sequential-keys",
        "single-thread",
        "no-durability",
        "fixed-size-values",
    ] {
        assert!(codes.iter().any(|c| c == code), "{code}: {codes:?}");
    }
    let plain = doc.benchmark("plain").unwrap();
    assert!(plain.design.is_none());
    assert!(!plain
        .diagnostics
        .iter()
        .any(|d| d.code().as_str() == "single-thread"));
    // The design survives the saved document.
    let saved = std::fs::read_to_string(dir.path().join("r.json")).unwrap();
    let read = plumb_model::ResultDocument::from_json(&saved).unwrap();
    assert_eq!(read.benchmark("lazy").unwrap().design, lazy.design);
}
