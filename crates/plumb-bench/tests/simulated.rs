//! Simulated counters of in-process benchmarks, end to end. This test is its own bench
//! binary (`harness = false`): run with `--bench` or `--simulate-child` it is the
//! harness with the enemies and one benchmark of its own registered; run by
//! `cargo test` it starts itself as a bench binary with `--counters=simulated` and reads
//! the result. Needs valgrind (.ci/run installs it) and optimised code (scripts/test.sh
//! runs it with --release).

// The six enemies are this crate's own experiments, not the library users build.
#[path = "../enemies.rs"]
mod enemies;

use plumb_bench::{black_box, CountingAllocator, Harness};
use plumb_model::{Metric, ResultDocument, RunStatus};
use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator::system();

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args
        .iter()
        .any(|a| a == "--bench" || a == "--simulate-child")
    {
        as_bench_binary();
    }
    if cfg!(debug_assertions) {
        println!("simulated: skipped in a debug build (scripts/test.sh runs it with --release)");
        return;
    }
    if Command::new("valgrind").arg("--version").output().is_err() {
        plumb_testkit::skip("simulated: valgrind is not installed");
        return;
    }
    sorted_and_shuffled_differ_in_mispredictions_only();
    setup_is_not_counted_and_the_budget_is_kept();
    ctrl_c_under_valgrind_keeps_the_timed_results();
    println!("simulated: 3 tests passed");
}

fn as_bench_binary() -> ! {
    let data = enemies::EnemyData::new();
    let mut h = Harness::from_env();
    enemies::register(&mut h, &data);
    // Each input is made by 10,000 additions; the routine is one. Counting the setup
    // would give thousands of instructions per operation.
    h.bench("setup_heavy", |b| {
        b.iter_batched(
            || (0..10_000u64).fold(0u64, |a, x| black_box(a.wrapping_add(x))),
            |x| x.wrapping_mul(3),
        )
    });
    h.run()
}

fn run_self(args: &[&str]) -> (Output, ResultDocument) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("out.json");
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--bench", "--quick", "--quiet", "--counters=simulated"])
        .args(args)
        .arg("--export-json")
        .arg(&json)
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&json).unwrap_or_else(|e| {
        panic!(
            "no result ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out, ResultDocument::from_json(&text).unwrap())
}

fn simulated_per_op(doc: &ResultDocument, name: &str, metric: &Metric) -> f64 {
    let b = doc.benchmark(name).unwrap();
    let sim = b
        .simulated
        .as_ref()
        .unwrap_or_else(|| panic!("{name} was not simulated"));
    assert!(
        sim.not_simulated.is_none(),
        "{name}: {:?}",
        sim.not_simulated
    );
    assert!(sim.tool.starts_with("callgrind"), "{}", sim.tool);
    let v = sim.per_op(metric);
    assert_eq!(v.len(), 1, "{name}: one N-against-2N difference");
    v[0]
}

/// The done-when of the counters issue, in process: the same values sorted and shuffled
/// through a branchy filter, one misprediction per two elements shuffled (the branch is
/// taken about half the time at random) and almost none sorted; the same instructions
/// per element, since the code and the values are the same.
fn sorted_and_shuffled_differ_in_mispredictions_only() {
    let (out, doc) = run_self(&["e5_branch/scan_shuffled", "e5_branch/scan_sorted"]);
    assert!(out.status.success(), "{out:?}");
    let mispredicted = |name| simulated_per_op(&doc, name, &Metric::ConditionalMispredictions);
    let (shuffled, sorted) = (
        mispredicted("e5_branch/scan_shuffled"),
        mispredicted("e5_branch/scan_sorted"),
    );
    assert!((0.4..0.6).contains(&shuffled), "shuffled: {shuffled}");
    assert!(sorted < 0.01, "sorted: {sorted}");
    let instructions = |name| simulated_per_op(&doc, name, &Metric::Instructions);
    let (a, b) = (
        instructions("e5_branch/scan_shuffled"),
        instructions("e5_branch/scan_sorted"),
    );
    assert!((a - b).abs() / a < 0.01 && a > 1.0, "{a} vs {b}");
}

fn setup_is_not_counted_and_the_budget_is_kept() {
    let (out, doc) = run_self(&["setup_heavy"]);
    assert!(out.status.success(), "{out:?}");
    let instructions = simulated_per_op(&doc, "setup_heavy", &Metric::Instructions);
    assert!(
        (1.0..50.0).contains(&instructions),
        "the routine is one multiplication; 10,000 additions of setup were counted? {instructions}"
    );
    let (out, doc) = run_self(&["setup_heavy", "--sim-budget", "1ms"]);
    assert!(out.status.success(), "{out:?}");
    let b = doc.benchmark("setup_heavy").unwrap();
    let why = b.simulated.as_ref().unwrap().not_simulated.as_deref();
    assert!(
        why.is_some_and(|w| w.contains("over the budget of")),
        "{why:?}"
    );
    assert!(!b.samples.is_empty(), "the timed samples are kept");
}

/// Ctrl-C while valgrind runs: the simulation stops, the timed samples are written, the
/// run says it was interrupted and exits 130.
fn ctrl_c_under_valgrind_keeps_the_timed_results() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("out.json");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--bench", "--quick", "--counters=simulated"])
        .args([
            "e5_branch/scan_shuffled",
            "e5_branch/scan_sorted",
            "--export-json",
        ])
        .arg(&json)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read stderr to its end on another thread (a closed pipe would fail the child's
    // next message), and say when the simulation has started.
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let (started, simulating) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        for line in stderr.lines() {
            let line = line.unwrap();
            if line.contains(": simulating ") {
                let _ = started.send(());
            }
            text.push_str(&line);
            text.push('\n');
        }
        text
    });
    assert!(
        simulating.recv().is_ok(),
        "no simulation started: {}",
        reader.join().unwrap()
    );
    // Into the simulation (valgrind's start-up takes longer than this).
    std::thread::sleep(std::time::Duration::from_millis(100));
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    let said = reader.join().unwrap();
    assert_eq!(status.code(), Some(130), "{said}");
    let doc = ResultDocument::from_json(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(matches!(doc.status, RunStatus::Interrupted { .. }));
    let stopped_under_valgrind = doc.benchmarks.iter().any(|b| {
        b.simulated.as_ref().unwrap().not_simulated.as_deref()
            == Some("its simulation was interrupted")
    });
    assert!(stopped_under_valgrind, "{said}");
    for b in &doc.benchmarks {
        assert!(!b.samples.is_empty(), "{} kept its timed samples", b.name);
        let why = b.simulated.as_ref().unwrap().not_simulated.as_deref();
        assert!(
            why.is_some_and(|w| w.contains("interrupted")),
            "{}: {why:?}",
            b.name
        );
    }
}
