//! Simulated branch mispredictions tell sorted from shuffled input: `examples/branchy.c`
//! over 200,000 values mispredicts ≈ 0 times per element sorted and ≈ 0.5 shuffled (the
//! program's start-up, some 3,000 mispredictions, is in both). Needs a C compiler and
//! valgrind (.ci/run installs valgrind); says so and skips where either is missing.

use plumb_counters::cachegrind::{simulate, Geometry, SimCache};
use plumb_model::quantity::ByteSize;
use std::path::PathBuf;
use std::process::Command;

const N: u64 = 200_000;

fn compiled() -> Option<PathBuf> {
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/branchy.c");
    let exe = std::env::temp_dir().join(format!("plumb-branchy-{}", std::process::id()));
    let built = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&source)
        .status()
        .ok()?;
    built.success().then_some(exe)
}

#[test]
fn sorted_input_is_predicted_and_shuffled_input_is_not() {
    if plumb_counters::cachegrind::valgrind_version().is_err() {
        plumb_testkit::skip("valgrind is not installed");
        return;
    }
    let Some(exe) = compiled() else {
        plumb_testkit::skip("no C compiler (cc)");
        return;
    };
    let cache = |size, ways| SimCache {
        size: ByteSize(size),
        ways,
        line_size: ByteSize(64),
    };
    let g = Geometry {
        i1: cache(32 << 10, 8),
        d1: cache(32 << 10, 8),
        ll: cache(32 << 20, 16),
    };
    let per_element = |order: &str| {
        let argv = vec![exe.display().to_string(), order.into(), N.to_string()];
        let stop = std::sync::atomic::AtomicBool::new(false);
        let t = simulate(&argv, &g, std::time::Duration::from_secs(120), &stop)
            .unwrap()
            .totals;
        t.conditional_mispredicts as f64 / N as f64
    };
    let (sorted, shuffled) = (per_element("sorted"), per_element("shuffled"));
    let _ = std::fs::remove_file(&exe);
    assert!(sorted < 0.05, "sorted: {sorted} mispredictions per element");
    assert!(
        (0.45..0.56).contains(&shuffled),
        "shuffled: {shuffled} mispredictions per element"
    );
}
