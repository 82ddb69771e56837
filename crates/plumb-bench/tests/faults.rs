//! A harness's faults end to end (issue 24, defects 3 and 15): this test is its own bench
//! binary (`harness = false`). Run by `cargo test`, it starts itself as a harness with a
//! closed stdout (`--list | head -1`, test mode, a whole run) and with a bad argument,
//! and reads what the child said, wrote and exited with.

use plumb_bench::{black_box, Harness};
use plumb_model::ResultDocument;
use std::process::{Command, Output, Stdio};

const CHILD: &str = "PLUMB_FAULTS_CHILD";

fn main() {
    if std::env::var_os(CHILD).is_some() {
        let mut h = Harness::from_env();
        for name in ["first", "second", "third"] {
            h.bench(name, |b| b.iter(|| black_box(3u64).wrapping_mul(7)));
        }
        h.run();
    }
    a_closed_stdout_ends_the_listing_without_a_panic();
    test_mode_with_a_closed_stdout_runs_every_routine();
    a_run_with_a_closed_stdout_writes_its_export();
    an_argument_error_is_one_line_not_the_usage();
    a_full_stdout_is_an_error_after_the_export_is_written();
    println!("faults: 5 tests passed");
}

/// Runs this binary as a harness whose stdout's reading end is closed before it writes.
fn with_closed_stdout(args: &[&str]) -> Output {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .env(CHILD, "1")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

fn assert_no_panic(out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
}

fn a_closed_stdout_ends_the_listing_without_a_panic() {
    for _ in 0..3 {
        let out = with_closed_stdout(&["--list"]);
        assert_no_panic(&out);
        assert_eq!(out.status.code(), Some(0));
    }
}

fn test_mode_with_a_closed_stdout_runs_every_routine() {
    let out = with_closed_stdout(&[]);
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(0));
}

fn a_run_with_a_closed_stdout_writes_its_export() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let json_arg = json.to_str().unwrap();
    let out = with_closed_stdout(&["--bench", "--quick", "--export-json", json_arg, "first"]);
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(0));
    let doc = ResultDocument::from_json(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(!doc.benchmark("first").unwrap().samples.is_empty());
}

fn an_argument_error_is_one_line_not_the_usage() {
    let out = Command::new(std::env::current_exe().unwrap())
        .env(CHILD, "1")
        .args(["--bench", "--measure-time", "soon"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--measure-time"),
        "names the option: {stderr}"
    );
    assert!(stderr.lines().count() <= 2, "not the usage: {stderr}");
    assert!(
        stderr.contains("--help"),
        "says where the usage is: {stderr}"
    );
}

/// `> /dev/full`: exit 2 naming standard output, and the export written all the same
/// (issue 24, defect 8).
fn a_full_stdout_is_an_error_after_the_export_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .env(CHILD, "1")
        .args([
            "--bench",
            "--quick",
            "--export-json",
            json.to_str().unwrap(),
            "first",
        ])
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot write to standard output"),
        "{stderr}"
    );
    let doc = ResultDocument::from_json(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(!doc.benchmarks.is_empty());
}
