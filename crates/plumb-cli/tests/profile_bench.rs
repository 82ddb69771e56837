//! `plumb profile --bench`, end to end: only the chosen benchmark's measured loop is in
//! the profile. This test is its own bench binary (`harness = false`): run with `--bench`
//! it is a plumb-bench harness with two benchmarks; run by `cargo test` it profiles one
//! of them through the real `plumb` and perf.

use plumb_bench::{black_box, Harness};
use std::process::Command;

/// The setup of the chosen benchmark: slow, so that perf samples it often.
#[inline(never)]
fn make_input() -> Vec<u64> {
    (0..20_000u64)
        .map(|x| black_box(x.wrapping_mul(2654435761)))
        .collect()
}

/// The chosen benchmark's routine: one allocation of 128 bytes per call, besides the
/// input its setup allocated.
#[inline(never)]
fn batched_work(v: Vec<u64>) -> u64 {
    let mut kept: Vec<u64> = Vec::with_capacity(16);
    kept.push(
        v.iter()
            .fold(0u64, |a, &x| black_box(a.wrapping_mul(31).wrapping_add(x))),
    );
    black_box(&kept)[0]
}

/// The other benchmark's routine.
#[inline(never)]
fn other_work(n: u64) -> u64 {
    (0..n).fold(1u64, |a, x| black_box(a.wrapping_mul(x | 1)))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--bench") {
        let mut h = Harness::from_env();
        h.bench("profiled/batched", |b| {
            b.iter_batched(make_input, batched_work)
        });
        h.bench("profiled/other", |b| {
            b.iter(|| other_work(black_box(10_000)))
        });
        h.run();
    }
    if std::env::var_os("PLUMB_SKIP_PERF_TESTS").is_some() {
        plumb_testkit::skip("profile_bench: PLUMB_SKIP_PERF_TESTS is set");
        return;
    }
    only_the_chosen_loop_is_profiled();
    println!("profile_bench: 1 test passed");
}

fn only_the_chosen_loop_is_profiled() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_plumb"))
        .args([
            "profile",
            "--bench",
            "profiled/batched",
            "--bench-time",
            "1s",
            "--alloc",
            "-o",
        ])
        .arg(dir.path())
        .arg("--")
        .arg(std::env::current_exe().unwrap())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let text = std::fs::read_to_string(dir.path().join("profile.json")).unwrap();
    let doc = plumb_model::ResultDocument::from_json(&text).unwrap();
    let p = &doc.profiles[0];
    assert_eq!(p.name, "profiled/batched");
    let named = |part: &str| p.functions.iter().any(|f| f.name.contains(part));
    assert!(named("batched_work"), "{stdout}");
    assert!(!named("make_input"), "the setup is in the table:\n{stdout}");
    assert!(
        !named("other_work"),
        "the other benchmark is in the table:\n{stdout}"
    );
    assert!(
        !named("plumb_bench::harness"),
        "the harness is in the table:\n{stdout}"
    );
    assert!(
        p.outside_samples > 0,
        "the setup was never sampled: {stdout}"
    );
    assert!(
        p.stacks
            .iter()
            .all(|s| s.stack.starts_with("plumb_bench::measure::untimed_region_")),
        "{:?}",
        p.stacks.first()
    );
    // The loop ran for the time asked: at 999 Hz, hundreds of samples in it.
    assert!(p.samples > 300, "{} samples", p.samples);
    // Allocations per operation: the routine's one block of 128 bytes; the setup's
    // 160,000-byte input is outside the loop.
    let a = p
        .allocations
        .as_ref()
        .unwrap_or_else(|| panic!("no allocations: {stderr}"));
    assert!(
        (a.blocks - 1.0).abs() < 1e-9 && (a.bytes - 128.0).abs() < 1e-9,
        "{a:?}"
    );
    assert!(
        a.sites[0].frames[0].contains("batched_work"),
        "{:?}",
        a.sites[0]
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_plumb"))
        .args(["profile", "--bench", "profiled/nothing", "-o"])
        .arg(dir.path())
        .arg("--")
        .arg(std::env::current_exe().unwrap())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        said.contains(
            "has no benchmark \"profiled/nothing\" (it has: profiled/batched, profiled/other)"
        ),
        "{said}"
    );
}
