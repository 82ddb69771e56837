//! Launches end to end (issue 30): this test is its own bench binary (`harness = false`).
//! Run by `cargo test`, it starts itself as a harness measuring in fresh processes of
//! itself, and reads what the parent wrote: each benchmark's launches, the interval over
//! them, a panicking routine failing alone, a routine that kills its process isolated.

use plumb_bench::{black_box, Harness};
use plumb_model::{Metric, ResultDocument};
use std::process::{Command, Output};

const CHILD: &str = "PLUMB_LAUNCHES_CHILD";
const PIDS: &str = "PLUMB_LAUNCHES_PIDS";

fn main() {
    if std::env::var_os(CHILD).is_some() {
        let mut h = Harness::from_env();
        h.bench("mul", |b| {
            note_process("mul");
            b.iter(|| black_box(3u64).wrapping_mul(7))
        });
        h.bench("sum", |b| {
            note_process("sum");
            b.iter(|| (0..black_box(64u64)).sum::<u64>())
        });
        h.bench("panics", |b| b.iter(|| panic!("boom")));
        h.bench("aborts", |b| b.iter(|| std::process::abort()));
        h.run();
    }
    launches_split_the_budget_and_are_the_replicates();
    a_panic_fails_its_benchmark_alone();
    a_routine_that_kills_its_process_loses_only_itself();
    println!("launches: 3 tests passed");
}

/// In a harness: which process measured benchmark `name` (a line in the file PIDS names).
fn note_process(name: &str) {
    use std::io::Write;
    let path = std::env::var_os(PIDS).unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .unwrap();
    writeln!(f, "{name} {}", std::process::id()).unwrap();
}

/// The processes that measured each benchmark, in order, from the PIDS file in `dir`.
fn processes(dir: &std::path::Path, name: &str) -> Vec<u32> {
    std::fs::read_to_string(dir.join("pids"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix(&format!("{name} ")))
        .map(|p| p.parse().unwrap())
        .collect()
}

/// The failure the document gives benchmark `name`.
fn failure_of(doc: &ResultDocument, name: &str) -> String {
    let f = doc.benchmark(name).and_then(|b| b.function()).unwrap();
    f.failure.clone().expect("a failure")
}

/// Runs this binary as a harness with `args`; its exit and the document it wrote.
fn harness(dir: &std::path::Path, args: &[&str]) -> (Output, ResultDocument) {
    let json = dir.join("r.json");
    let out = Command::new(std::env::current_exe().unwrap())
        .env(CHILD, "1")
        .env(PIDS, dir.join("pids"))
        .args(["--bench", "--warmup-cap", "0.1s", "--export-json"])
        .arg(&json)
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let text = std::fs::read_to_string(&json).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    (out, ResultDocument::from_json(&text).unwrap())
}

fn launches_split_the_budget_and_are_the_replicates() {
    let dir = tempfile::tempdir().unwrap();
    let (out, doc) = harness(
        dir.path(),
        &[
            "--launches",
            "4",
            "--measure-time",
            "80ms",
            "--sample-count",
            "40",
            "mul",
            "sum",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for n in 1..=4 {
        assert!(stderr.contains(&format!("launch {n} of 4")), "{stderr}");
    }
    // One process a launch for both benchmarks, four processes, none the parent.
    let (mul, sum) = (processes(dir.path(), "mul"), processes(dir.path(), "sum"));
    assert_eq!(mul, sum);
    assert_eq!(mul.len(), 4);
    assert_eq!(
        mul.iter().collect::<std::collections::BTreeSet<_>>().len(),
        4
    );
    for name in ["mul", "sum"] {
        let b = doc.benchmark(name).unwrap();
        let counts = &b.function().unwrap().launch_sample_counts;
        assert_eq!(counts.len(), 4, "{name}: {counts:?}");
        // Each launch took its share: 40 / 4 samples in 80 / 4 ms (fewer only when the
        // batch outgrew the share of time, never more).
        assert!(counts.iter().all(|&c| (2..=10).contains(&c)), "{counts:?}");
        assert_eq!(counts.iter().sum::<usize>(), b.samples.len());
        // The interval of the mean is Student's over the four launch means.
        let means = b.launch_means(&Metric::WallTime).unwrap();
        let ci = plumb_stats::mean_ci(&means, 0.999).unwrap();
        let stats = &b.stats[&Metric::WallTime];
        let error = stats.error.unwrap();
        assert!(
            (error - ci.error).abs() <= 1e-9 * ci.error.max(1.0),
            "{name}: error {error} against the launches' {}",
            ci.error
        );
    }
}

fn a_panic_fails_its_benchmark_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (out, doc) = harness(
        dir.path(),
        &["--launches", "3", "--measure-time", "30ms", "mul", "panics"],
    );
    assert_eq!(out.status.code(), Some(2));
    let mul = doc.benchmark("mul").unwrap();
    assert_eq!(mul.function().unwrap().launch_sample_counts.len(), 3);
    assert!(mul.function().unwrap().failure.is_none());
    let failure = failure_of(&doc, "panics");
    assert_eq!(failure, "launches 1, 2, 3: panicked: boom");
}

fn a_routine_that_kills_its_process_loses_only_itself() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--launches",
        "2",
        "--measure-time",
        "30ms",
        "mul",
        "aborts",
        "sum",
    ];
    let (out, doc) = harness(dir.path(), &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    for name in ["mul", "sum"] {
        let f = doc.benchmark(name).unwrap().function().unwrap().clone();
        assert_eq!(f.launch_sample_counts.len(), 2, "{name}: {stderr}");
        assert!(f.failure.is_none(), "{name}: {:?}", f.failure);
    }
    let failure = failure_of(&doc, "aborts");
    assert!(failure.starts_with("launches 1, 2: died"), "{failure}");
    // Launch 1 took mul and sum (registry order) in the process that then died, and
    // again each in a process of its own; so did launch 2.
    let (mul, sum) = (processes(dir.path(), "mul"), processes(dir.path(), "sum"));
    assert_eq!((mul.len(), sum.len()), (3, 3), "{mul:?} {sum:?}");
    assert_eq!(mul[0], sum[0]);
    assert!(sum[1..].iter().all(|p| !mul.contains(p)), "{mul:?} {sum:?}");
    assert!(
        stderr.contains("from now on one benchmark a process"),
        "{stderr}"
    );
    assert!(stderr.contains("aborts FAILED"), "{stderr}");
}
