//! Ctrl-C mid-sampling keeps what was measured, end to end: this test is its own bench
//! binary (`harness = false`). Run by `cargo test`, it starts itself as a harness whose
//! first benchmark would sample for 30 s, sends SIGINT after 3 s, and reads what the
//! stopped harness wrote: in one process, and in launches (the SIGINT sent to the parent
//! alone, as `kill` does, which passes it on to the launch measuring).

use plumb_bench::{black_box, Harness};
use plumb_model::{ResultDocument, RunStatus};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CHILD: &str = "PLUMB_INTERRUPTED_CHILD";

fn main() {
    if std::env::var_os(CHILD).is_some() {
        let mut h = Harness::from_env();
        h.bench("long", |b| b.iter(|| black_box(3u64).wrapping_mul(7)));
        h.bench("never_started", |b| b.iter(|| black_box(1u64)));
        h.run();
    }
    // One process: 30 s of samples. Launches: 30 s a launch (300 s over ten).
    ctrl_c_writes_the_samples_taken(&["--launches", "1", "--measure-time", "30s"], To::Harness);
    ctrl_c_writes_the_samples_taken(&["--measure-time", "300s"], To::Harness);
    // As a terminal's Ctrl-C: to the parent and the launch at once, and then the parent
    // passes it on (a second signal, which must not end the launch before it writes).
    ctrl_c_writes_the_samples_taken(&["--measure-time", "300s"], To::Group);
    println!("interrupted: 3 tests passed");
}

/// Whom SIGINT is sent to: the harness alone (`kill PID`) or its process group.
#[derive(PartialEq)]
enum To {
    Harness,
    Group,
}

fn ctrl_c_writes_the_samples_taken(how: &[&str], to: To) {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let started = Instant::now();
    let child = Command::new(std::env::current_exe().unwrap())
        .env(CHILD, "1")
        .args(["--bench", "--target-error", "off"])
        .args(how)
        .args(["--warmup-cap", "0.2s", "--export-json"])
        .arg(&json)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    // Well past start-up and the 0.2 s warm-up cap, even in a debug build on a busy machine.
    std::thread::sleep(Duration::from_millis(3000));
    let target = match to {
        To::Harness => child.id().to_string(),
        To::Group => format!("-{}", child.id()),
    };
    let sent = Command::new("kill")
        .args(["-INT", "--", &target])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        took < Duration::from_secs(20),
        "stopped at once, not after 30 s: {took:?}"
    );
    assert!(stderr.contains("stopped by Ctrl-C"), "{stderr}");
    let doc = ResultDocument::from_json(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(
        matches!(&doc.status, RunStatus::Interrupted { signal: Some(s) } if s == "Ctrl-C"),
        "{:?}",
        doc.status
    );
    let long = doc
        .benchmark("long")
        .expect("the benchmark in progress is kept");
    assert!(!long.samples.is_empty(), "its samples are written");
    assert!(doc.benchmark("never_started").is_none());
    let stop = long.function().and_then(|f| f.precision_stop);
    assert_eq!(
        stop, None,
        "no precision target was pursued (--target-error off)"
    );
}
