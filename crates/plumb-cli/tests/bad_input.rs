//! Bad input: one clear line on stderr, exit code 2, no panic.
mod common;

use common::Env;

fn fails_with(env: &Env, args: &[&str], needle: &str) {
    let run = env.plumb(args);
    run.assert_code(2);
    assert!(
        run.stderr.contains(needle),
        "stderr lacks {needle:?}:\n{}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}

#[test]
fn unknown_option() {
    fails_with(
        &Env::new(),
        &["run", "--bogus", "true"],
        "unexpected argument '--bogus'",
    );
}

#[test]
fn command_not_found() {
    fails_with(
        &Env::new(),
        &["run", "plumb-no-such-command"],
        "command not found",
    );
}

#[test]
fn crashing_command() {
    fails_with(
        &Env::new(),
        &["run", "sh -c 'kill -SEGV $$'"],
        "killed by signal 11",
    );
}

#[test]
fn zero_and_negative_run_counts() {
    let env = Env::new();
    fails_with(&env, &["run", "true", "--runs", "0"], "must be at least 1");
    fails_with(&env, &["run", "true", "--runs", "-3"], "must be at least 1");
    fails_with(
        &env,
        &["run", "true", "--min-runs", "0"],
        "must be at least 1",
    );
    fails_with(
        &env,
        &["run", "true", "--min-runs", "9", "--max-runs", "3"],
        "larger than --max-runs",
    );
    // u64::MAX is a whole number, but not a number of runs that can finish or be kept.
    for option in ["--runs", "--min-runs", "--warmup"] {
        fails_with(
            &env,
            &["run", "true", option, "18446744073709551615"],
            &format!("{option} 18446744073709551615 is more than the 10000000 runs"),
        );
    }
    fails_with(
        &env,
        &["run", "true", "--runs", "99999999999999999999999"],
        "is too large",
    );
}

#[test]
fn empty_parameter_range_and_list() {
    let env = Env::new();
    fails_with(&env, &["run", "echo {n}", "-P", "n", "5", "1"], "is empty");
    fails_with(&env, &["run", "echo {n}", "-L", "n", ""], "list is empty");
    fails_with(
        &env,
        &["run", "echo {n}", "-P", "n", "1", "5", "-D", "-1"],
        "step must be positive",
    );
    fails_with(&env, &["run", "echo", "-P", "n", "1", "5"], "not used");
    fails_with(
        &env,
        &["run", "echo {n}", "-P", "n", "1", "5", "-L", "n", "a"],
        "given twice",
    );
    let product = [
        "run",
        "echo {a} {b}",
        "-P",
        "a",
        "1",
        "1000",
        "-P",
        "b",
        "1",
        "1000",
    ];
    fails_with(&env, &product, "1000000 commands");
}

#[test]
fn compare_refuses_malformed_foreign_and_other_version_files() {
    let env = Env::new();
    let good = env.path("good.json");
    env.plumb(&[
        "run",
        "true",
        "--runs",
        "3",
        "--export-json",
        good.to_str().unwrap(),
    ])
    .assert_code(0);
    let g = good.to_str().unwrap();
    let broken = env.write("broken.json", "{\"format\": \"plumb-res");
    fails_with(
        &env,
        &["compare", broken.to_str().unwrap(), g],
        "not valid JSON",
    );
    let foreign = env.write(
        "hyperfine.json",
        r#"{"results": [{"command": "true", "mean": 0.001}]}"#,
    );
    fails_with(
        &env,
        &["compare", g, foreign.to_str().unwrap()],
        "not a plumb result",
    );
    let text = std::fs::read_to_string(&good).unwrap();
    let future = env.write(
        "future.json",
        &text.replace(
            &format!("\"format_version\": {}", plumb_model::FORMAT_VERSION),
            "\"format_version\": 99",
        ),
    );
    fails_with(
        &env,
        &["compare", g, future.to_str().unwrap()],
        "format version 99",
    );
    fails_with(
        &env,
        &["compare", g, "missing.json"],
        "cannot read missing.json",
    );
}

#[test]
fn unwritable_export_path_fails_before_measuring() {
    let env = Env::new();
    let run = env.plumb(&[
        "run",
        "sleep 1",
        "--runs",
        "100",
        "--export-json",
        "/nonexistent-dir/r.json",
    ]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("cannot write /nonexistent-dir/r.json"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "nothing was run: {}", run.stdout);
}

#[test]
fn bad_levels() {
    let env = Env::new();
    fails_with(
        &env,
        &["run", "true", "--sesoi", "2"],
        "write a percentage with %",
    );
    fails_with(
        &env,
        &["run", "true", "--confidence", "100%"],
        "confidence level",
    );
    fails_with(
        &env,
        &["run", "true", "--baseline", "nope"],
        "names no benchmark",
    );
}

/// One grammar for every subcommand: a duration needs a unit, and the message names the
/// option, the value and a valid example.
#[test]
fn a_duration_without_a_unit_is_refused_with_a_hint() {
    let env = Env::new();
    for args in [
        vec!["simulate", "--stall", "5"],
        vec!["simulate", "--duration", "5"],
        vec!["run", "true", "--min-time", "5"],
        vec!["load", "http://127.0.0.1:9/", "--rate", "10", "--spin", "5"],
    ] {
        let run = env.plumb(&args);
        run.assert_code(2);
        let flag = args
            .iter()
            .find(|a| a.starts_with("--") && *a != &"--rate")
            .unwrap();
        for needle in [*flag, "`5` needs a unit", "5ms, 5s"] {
            assert!(
                run.stderr.contains(needle),
                "{args:?} lacks {needle:?}: {}",
                run.stderr
            );
        }
    }
}

/// `99.9`, `99.9%` and `0.999` are the same level for every subcommand (the harness's own
/// parser is tested in plumb-bench's args.rs); levels below 50 % are refused by all.
#[test]
fn confidence_in_percent_or_fraction_form_is_accepted_alike() {
    let env = Env::new();
    let mut files = Vec::new();
    for (i, level) in ["99.9", "99.9%", "0.999"].into_iter().enumerate() {
        let out = env.path(&format!("r{i}.json"));
        env.plumb(&[
            "run",
            "true",
            "--runs",
            "3",
            "--warmup",
            "0",
            "--confidence",
            level,
            "--export-json",
            out.to_str().unwrap(),
        ])
        .assert_code(0);
        let doc = common::read_doc(&out);
        assert_eq!(
            doc.settings.confidence.get().to_bits(),
            0.999f64.to_bits(),
            "{level}"
        );
        files.push(out);
    }
    for level in ["99.9", "99.9%", "0.999"] {
        let run = env.plumb(&[
            "compare",
            files[0].to_str().unwrap(),
            files[1].to_str().unwrap(),
            "--confidence",
            level,
        ]);
        assert!(run.code == 0 || run.code == 1, "{level}: {}", run.stderr);
        assert!(run.stdout.contains("99.9% confidence"), "{}", run.stdout);
    }
    // plumb load records the level with its result: the same three forms, one value.
    let port = common::stalling_server(u64::MAX, std::time::Duration::ZERO);
    let url = format!("http://127.0.0.1:{port}/");
    for (i, level) in ["99.9", "99.9%", "0.999"].into_iter().enumerate() {
        let out = env.path(&format!("l{i}.json"));
        let run = env.plumb(&[
            "load",
            &url,
            "--rate",
            "20",
            "--duration",
            "100ms",
            "--warmup",
            "0s",
            "--confidence",
            level,
            "--export-json",
            out.to_str().unwrap(),
        ]);
        assert!(
            !run.stderr.contains("confidence"),
            "{level}: {}",
            run.stderr
        );
        let doc = common::read_doc(&out);
        assert_eq!(
            doc.settings.confidence.get().to_bits(),
            0.999f64.to_bits(),
            "{level}"
        );
    }
    for args in [
        vec!["run", "true", "--confidence", "0.3"],
        vec!["compare", "a.json", "b.json", "--confidence", "0.3"],
        vec![
            "load",
            "http://127.0.0.1:9/",
            "--rate",
            "1",
            "--confidence",
            "0.3",
        ],
    ] {
        fails_with(&env, &args, "between 50% and 100%");
    }
}

/// A version-1 result written by plumb 0.1 is still read (migrated on load, and said so).
#[test]
fn compare_reads_version_1_results() {
    let env = Env::new();
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/../plumb-model/tests/fixtures");
    let v1 = format!("{fixtures}/run2-v1.json");
    let new = env.path("new.json");
    env.plumb(&[
        "run",
        "sleep 0.001",
        "sleep 0.0012",
        "--runs",
        "12",
        "--warmup",
        "1",
        "--export-json",
        new.to_str().unwrap(),
    ])
    .assert_code(0);
    let run = env.plumb(&["compare", &v1, new.to_str().unwrap()]);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "is a version-1 result; read as version {}",
            plumb_model::FORMAT_VERSION
        )),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("sleep 0.0012"), "{}", run.stdout);
    let run = env.plumb(&["compare", &v1, &v1]);
    run.assert_code(0);
    assert!(run.stdout.contains("×1.000"), "{}", run.stdout);
}

/// Output piped into `head` that closes early: plumb exits 0 quietly, every time.
#[test]
fn a_closed_pipe_is_not_an_error() {
    use std::io::{BufRead, BufReader};
    let env = Env::new();
    for (args, tries) in [
        (vec!["env"], 100),
        (vec!["simulate", "--duration", "1s"], 20),
    ] {
        for _ in 0..tries {
            let mut child = env
                .command(&args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            let mut first = String::new();
            BufReader::new(child.stdout.take().unwrap())
                .read_line(&mut first)
                .unwrap();
            // The reader is dropped here: the pipe closes with output still to come.
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
            assert!(stderr.is_empty(), "{args:?}: {stderr}");
        }
    }
}

/// Outputs are checked before anything runs: two to one file, an unwritable one (for
/// compare too), a merge over its own input, the commands' --output, a missing shell.
#[test]
fn outputs_and_programs_are_checked_before_running() {
    let env = Env::new();
    let run = env.plumb(&["run", "true", "--export-json", "x", "--export-csv", "x"]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("--export-json and --export-csv both write x: give each its own file"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty() && !env.path("x").exists());
    let good = env.path("good.json");
    env.plumb(&[
        "run",
        "true",
        "--runs",
        "3",
        "--export-json",
        good.to_str().unwrap(),
    ])
    .assert_code(0);
    let g = good.to_str().unwrap();
    let run = env.plumb(&["compare", g, g, "--export-json", "/proc/x.json"]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("--export-json: cannot write /proc/x.json"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.is_empty(),
        "nothing printed first: {}",
        run.stdout
    );
    fails_with(&env, &["merge", g, g, "-o", g], "is one of the inputs");
    fails_with(
        &env,
        &["run", "true", "--runs", "2", "--output", "/proc/nope/x"],
        "--output /proc/nope/x: No such file or directory",
    );
    fails_with(
        &env,
        &["run", "true", "--shell=/no/such/shell"],
        "--shell=/no/such/shell: no such program",
    );
}

/// `-` is standard output for every export; the human report moves to stderr.
#[test]
fn a_dash_exports_to_stdout() {
    let env = Env::new();
    let run = env.plumb(&[
        "run",
        "true",
        "--runs",
        "3",
        "--warmup",
        "0",
        "--export-json",
        "-",
    ]);
    run.assert_code(0);
    let doc = plumb_model::ResultDocument::from_json(&run.stdout).expect("stdout is the JSON");
    assert_eq!(doc.benchmarks[0].samples.len(), 3);
    assert!(run.stderr.contains("Benchmark"), "{}", run.stderr);
    assert!(!env.path("-").exists());
    let run = env.plumb(&[
        "run",
        "true",
        "--runs",
        "3",
        "--warmup",
        "0",
        "--export-csv",
        "-",
    ]);
    run.assert_code(0);
    assert!(run.stdout.starts_with("name,"), "{}", run.stdout);
    let run = env.plumb(&["run", "true", "--export-json", "-", "--export-csv", "-"]);
    run.assert_code(2);
    assert!(run.stderr.contains("both write -"), "{}", run.stderr);
}

/// Differently named benchmarks: the only one of each is compared with a note; --pair
/// names pairs; with nothing to pair the error lists the names and says how.
#[test]
fn compare_pairs_differently_named_benchmarks() {
    let env = Env::new();
    let result = |name: &str, cmds: &[&str]| {
        let path = env.path(name);
        let mut args = vec!["run", "--runs", "12", "--warmup", "0"];
        args.extend(cmds);
        args.extend(["--export-json", path.to_str().unwrap()]);
        env.plumb(&args).assert_code(0);
        path.to_str().unwrap().to_string()
    };
    let (a, b) = (
        result("a.json", &["sleep 0.001"]),
        result("b.json", &["sleep 0.002"]),
    );
    let run = env.plumb(&["compare", &a, &b]);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    assert!(
        run.stdout.contains("sleep 0.001 → sleep 0.002"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("the only benchmark of each result"),
        "{}",
        run.stdout
    );
    let (c, d) = (
        result("c.json", &["sleep 0.001", "true"]),
        result("d.json", &["sleep 0.0011", "echo x"]),
    );
    let run = env.plumb(&["compare", &c, &d]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("pair them with --pair OLD=NEW")
            && run.stderr.contains("\"sleep 0.0011\""),
        "{}",
        run.stderr
    );
    let run = env.plumb(&["compare", &c, &d, "--pair", "sleep 0.001=sleep 0.0011"]);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    assert!(
        run.stdout.contains("sleep 0.001 → sleep 0.0011"),
        "{}",
        run.stdout
    );
    let run = env.plumb(&["compare", &c, &d, "--pair", "nope=true"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("--pair: no benchmark \"nope\""),
        "{}",
        run.stderr
    );
}

/// Setups that would spin for hours are refused at once, saying how to shrink them.
#[test]
fn huge_scans_and_simulations_are_refused_up_front() {
    let env = Env::new();
    let started = std::time::Instant::now();
    fails_with(
        &env,
        &["run", "echo {n}", "-P", "n", "1", "100000"],
        "make 100000 benchmarks, more than 10000",
    );
    fails_with(
        &env,
        &["simulate", "--rate", "1e9"],
        "3.00e10 requests to simulate",
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

/// Each prepared command holds 4 files open; a scan past the open-file limit is refused
/// before anything runs, with the numbers and the fix.
#[test]
fn a_scan_beyond_the_open_file_limit_says_so() {
    let env = Env::new();
    let out = std::process::Command::new("sh")
        .args([
            "-c",
            r#"ulimit -n 256 && exec "$0" "$@""#,
            env!("CARGO_BIN_EXE_plumb"),
            "run",
            "-P",
            "n",
            "1",
            "100",
            "true {n}",
        ])
        .current_dir(env.path(""))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("100 commands need about 464 open files")
            && stderr.contains("the limit is 256")
            && stderr.contains("ulimit -n"),
        "{stderr}"
    );
}

/// Ctrl-C with --warmup 0 during the first run does not speak of a warm-up that never was
/// (issue 24, defect 14).
#[test]
fn ctrl_c_without_warm_up_does_not_say_during_warm_up() {
    let env = Env::new();
    let run = env.plumb_signalled(
        &["run", "--warmup", "0", "--runs", "3", "sleep 30"],
        "-INT",
        std::time::Duration::from_millis(1500),
    );
    assert_eq!(run.code, 130, "{}", run.stderr);
    assert!(!run.stderr.contains("warm-up"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("stopped by Ctrl-C before the first run ended"),
        "{}",
        run.stderr
    );
}

/// Ctrl-C while a large scan is still warming up: said so, exit 130, the warm-up saved.
#[test]
fn ctrl_c_during_the_warm_up_of_a_scan_says_nothing_was_measured_yet() {
    let env = Env::new();
    let json = env.path("scan.json");
    // 1000 commands × 20 warm-up runs of `true` take 20 s or more: 3 s is well inside
    // the warm-up, and past the setup even on a loaded machine.
    let run = env.plumb_signalled(
        &[
            "run",
            "-P",
            "n",
            "1",
            "1000",
            "--warmup",
            "20",
            "--export-json",
            json.to_str().unwrap(),
            "true {n}",
        ],
        "-INT",
        std::time::Duration::from_secs(3),
    );
    let stderr = run.stderr;
    assert_eq!(run.code, 130, "{stderr}");
    assert!(
        stderr.contains("stopped by Ctrl-C before the first measured run (during warm-up)"),
        "{stderr}"
    );
    let doc = common::read_doc(&json);
    assert_eq!(doc.benchmarks.len(), 1000);
    assert!(doc.benchmarks.iter().all(|b| b.samples.is_empty()));
    assert!(doc.benchmarks.iter().any(|b| !b.warmup.is_empty()));
}

/// The top-level help says what plumb does for its user, not how it is built, and each
/// subcommand's help carries a worked example.
#[test]
fn help_speaks_to_users() {
    let env = Env::new();
    let top = env.plumb(&["--help"]);
    top.assert_code(0);
    assert!(
        top.stdout.starts_with("Benchmark commands"),
        "{}",
        top.stdout
    );
    for internal in ["thin layer", "producers", "wires"] {
        assert!(!top.stdout.contains(internal), "{}", top.stdout);
    }
    for sub in ["run", "compare", "show", "load", "simulate", "merge", "env"] {
        let help = env.plumb(&[sub, "--help"]);
        help.assert_code(0);
        assert!(
            help.stdout.contains("plumb ") && help.stdout.contains("Example"),
            "{sub}:\n{}",
            help.stdout
        );
    }
}

/// Issue 24, defect 1: `compare a b --export-json a` overwrote the base result with the
/// comparison and exited 0. Refused before anything is read or written.
#[test]
fn compare_does_not_overwrite_a_result_it_compares() {
    let env = Env::new();
    let fixture = format!(
        "{}/../plumb-model/tests/fixtures/run2-v1.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let base = env.path("a.json");
    std::fs::copy(&fixture, &base).unwrap();
    let before = std::fs::read(&base).unwrap();
    let a = base.to_str().unwrap();
    for (new, out) in [(a, a), (fixture.as_str(), a)] {
        fails_with(
            &env,
            &["compare", a, new, "--export-json", out],
            "--export-json",
        );
        assert_eq!(
            std::fs::read(&base).unwrap(),
            before,
            "the base result changed"
        );
    }
    let run = env.plumb(&["compare", &fixture, a, "--export-json", a]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("is one of the results compared") && run.stderr.contains("new file"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read(&base).unwrap(), before);
}

/// Standard output that cannot be written (`> /dev/full`) is an error, exit 2, not a
/// silent exit 0 with nothing written; a run's export still reaches its file
/// (issue 24, defect 8).
#[test]
fn a_full_stdout_is_an_error_and_loses_no_export() {
    let env = Env::new();
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../plumb-model/tests/fixtures/run2-v1.json"
    );
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let json = env.path("r.json");
    let runs: [&[&str]; 6] = [
        &["env", "--json"],
        &["env"],
        &["man"],
        &["show", fixture, "--export-json", "-"],
        &["show", fixture],
        &[
            "run",
            "--debug-fake-runs",
            "true",
            "--export-json",
            json.to_str().unwrap(),
        ],
    ];
    for args in runs {
        let out = env.command(args).stdout(full()).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("standard output") && stderr.contains("No space left on device"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let doc = common::read_doc(&json);
    assert!(
        !doc.benchmarks[0].samples.is_empty(),
        "the run's export was written"
    );
}

/// Every output of `plumb report` and `plumb profile` is checked before any work: an
/// --svg-dir that is a file leaves no page behind, `-o -` writes the page to stdout (not a
/// file named `-`), and profile's --report is refused before perf runs (issue 24,
/// defect 9).
#[test]
fn report_and_profile_outputs_are_checked_before_any_work() {
    let env = Env::new();
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../plumb-model/tests/fixtures/run2-v1.json"
    );
    let file = env.write("not-a-dir", "x");
    let page = env.path("r.html");
    let run = env.plumb(&[
        "report",
        fixture,
        "-o",
        page.to_str().unwrap(),
        "--svg-dir",
        file.to_str().unwrap(),
    ]);
    run.assert_code(2);
    assert!(run.stderr.contains("--svg-dir"), "{}", run.stderr);
    assert!(!page.exists(), "no page written before the failure");

    let run = env.plumb(&["report", fixture, "-o", "-"]);
    run.assert_code(0);
    assert!(
        run.stdout.trim_start().starts_with("<!doctype html>"),
        "{}",
        &run.stdout[..run.stdout.len().min(200)]
    );
    assert!(!env.path("-").exists(), "no file named '-'");

    let run = env.plumb(&["profile", "--report", "/nonexistent/x.html", "--", "true"]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("--report: cannot write /nonexistent/x.html"),
        "{}",
        run.stderr
    );
}

/// A negative value is out of range, and said so by the option's own parser — not taken
/// for an unknown flag with a tip to write `-- -1`, which would make it a command
/// (issue 24, defect 13); NaN does not bound a scan (defect 12).
#[test]
fn negative_and_non_finite_values_are_out_of_range_not_flags() {
    let env = Env::new();
    let url = "http://127.0.0.1:9/";
    let cases: [(&[&str], &str); 12] = [
        (&["run", "--sesoi", "-2%", "true"], "'-2%' for '--sesoi"),
        (&["load", url, "--rate", "-5"], "'-5' for '--rate"),
        (
            &["run", "--min-time", "-1s", "true"],
            "'-1s' for '--min-time",
        ),
        (&["run", "--seed", "-1", "true"], "`-1` must be at least 0"),
        (
            &["load", url, "--rate", "5", "--seed", "-1"],
            "`-1` must be at least 0",
        ),
        (&["run", "--runs", "-3", "true"], "`-3` must be at least 1"),
        (
            &["load", url, "--rate", "5", "--duration", "-1s"],
            "`-1s` is negative",
        ),
        (
            &["load", url, "--rate", "5", "--threads", "-1"],
            "'-1' for '--threads",
        ),
        (
            &["load", url, "--rate", "5", "--max-error-rate", "-0.1"],
            "'-0.1' for '--max-error-rate",
        ),
        (
            &["compare", "a", "b", "--confidence", "-5%"],
            "'-5%' for '--confidence",
        ),
        (&["simulate", "--rate", "-450"], "'-450' for '--rate"),
        (
            &["run", "-P", "n", "0", "NaN", "echo {n}"],
            "\"NaN\" is not a finite number",
        ),
    ];
    for (args, needle) in cases {
        let run = env.plumb(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
        assert!(
            !run.stderr.contains("unexpected argument"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(
            !run.stderr.contains("no command to benchmark"),
            "{args:?}: {}",
            run.stderr
        );
    }
}

/// Issue 45, defect 31: an output in a directory that is not there is refused, before
/// any work, and the directory is not made — `history export -o`, `revs --export-json`
/// (before anything is built), `coordinate -o`, `load deploy k8s -o` — as `run` refuses
/// it. (This held when checked: the test keeps it so.)
#[test]
fn an_output_in_a_missing_directory_is_refused_and_no_directory_made() {
    let env = Env::new();
    let r = env.plumb(&["run", "--runs", "2", "true", "--export-json", "r.json"]);
    r.assert_code(0);
    env.plumb(&[
        "history",
        "--history",
        "h.db",
        "add",
        "r.json",
        "--commit",
        "abc",
    ])
    .assert_code(0);
    for (args, token) in [
        (
            &[
                "history",
                "--history",
                "h.db",
                "export",
                "-o",
                "nodir/x.csv",
            ][..],
            false,
        ),
        (
            &[
                "load",
                "deploy",
                "k8s",
                "--agents",
                "2",
                "--image",
                "i",
                "-o",
                "nodir/k.yaml",
                "--",
                "http://x/",
                "--rate",
                "5",
            ],
            false,
        ),
        (
            &[
                "coordinate",
                "--agents",
                "2",
                "-o",
                "nodir/c.json",
                "--join-within",
                "1s",
            ],
            true,
        ),
        (
            &[
                "revs",
                "HEAD",
                "HEAD",
                "--export-json",
                "nodir/r.json",
                "--",
                "true",
            ],
            false,
        ),
    ] {
        let mut c = env.command(args);
        if token {
            c.env("PLUMB_TOKEN", "a-token-of-some-length-0123456789");
        }
        let r = common::Run::of(c.output().unwrap());
        r.assert_code(2);
        assert!(
            r.stderr.contains("nodir/") && r.stderr.contains("No such file or directory"),
            "{args:?}: {}",
            r.stderr
        );
        assert!(!env.path("nodir").exists(), "{args:?} made the directory");
    }
}
