//! `plumb design check` end to end: a stock YCSB workload's red flags against this
//! machine's caches, a realistic design with none, and each kind of bad workload file
//! refused with its key (exit 2), nothing measured.
mod common;

use common::Env;

#[test]
fn stock_ycsb_a_fits_in_this_machines_cache() {
    let env = Env::new();
    env.write("a.toml", "preset = \"ycsb-a\"\n");
    let run = env.plumb(&["design", "check", "a.toml"]);
    run.assert_code(1);
    assert!(
        run.stdout.contains("working-set-in-cache"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("999.0 KiB (records × record size)"),
        "{}",
        run.stdout
    );
    // The cache named is the one this machine has (read at run time).
    let env_json = env.plumb(&["env", "--json"]);
    let machine: plumb_model::Environment = serde_json::from_str(&env_json.stdout).unwrap();
    let llc = machine.last_level_cache().unwrap();
    assert!(
        run.stdout.contains(&format!("L{} cache", llc.level)),
        "{}",
        run.stdout
    );
}

#[test]
fn a_realistic_design_raises_nothing_and_json_says_so() {
    let env = Env::new();
    env.write(
        "w.toml",
        r#"preset = "ycsb-a"
records = 100_000_000
value_size = { uniform = ["100B", "4KiB"] }
threads = 16
durability = "group-commit"
state = "aged"
[benchmarks."fast path"]
threads = 1
"#,
    );
    let run = env.plumb(&["design", "check", "w.toml", "--json"]);
    // The shared design is clean; the benchmark with one thread is not.
    run.assert_code(1);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v[0]["name"], "design");
    assert_eq!(
        v[0]["diagnostics"].as_array().unwrap().len(),
        0,
        "{}",
        run.stdout
    );
    assert_eq!(v[0]["design"]["records"], 100_000_000);
    assert_eq!(v[1]["name"], "benchmark \"fast path\"");
    assert_eq!(v[1]["diagnostics"][0]["code"], "single-thread");
    assert_eq!(v[1]["design"]["threads"], 1);
    env.write("clean.toml", "preset = \"ycsb-a\"\nrecords = 100_000_000\nvalue_size = { zipfian = [\"1B\", \"1KiB\"] }\n");
    let clean = env.plumb(&["design", "check", "clean.toml"]);
    clean.assert_code(0);
    assert!(clean.stdout.contains("no red flags"), "{}", clean.stdout);
}

#[test]
fn bad_workload_files_are_refused_with_their_key() {
    let env = Env::new();
    for (text, words) in [
        ("thread = 3\n", "unknown field `thread`, expected one of"),
        (
            "keys = \"zipfian\"\ntheta = 0\n",
            "`theta` = 0 is outside (0, 1)",
        ),
        (
            "mix = { read = \"70%\", update = \"20%\" }\n",
            "`mix` sums to 90 %",
        ),
        ("value_size = 100\n", "`value_size` = 100 needs a unit"),
        ("duration = \"10 parsecs\"\n", "`duration`"),
        (
            "preset = \"ycsb-a\"\nrecords = 1e12\n",
            "larger than the whole filesystem",
        ),
        ("keys = [\n", "TOML parse error"),
    ] {
        env.write("bad.toml", text);
        let run = env.plumb(&["design", "check", "bad.toml"]);
        run.assert_code(2);
        assert!(run.stderr.contains(words), "{text:?}: {}", run.stderr);
        assert!(run.stderr.contains("bad.toml"), "{}", run.stderr);
        assert!(run.stdout.is_empty(), "{}", run.stdout);
    }
    let missing = env.plumb(&["design", "check", "nowhere.toml"]);
    missing.assert_code(2);
    assert!(
        missing
            .stderr
            .contains("cannot read the workload file nowhere.toml"),
        "{}",
        missing.stderr
    );
}

/// `plumb run --workload`: the design recorded on each benchmark (a benchmark's own table
/// over the shared traits), its red flags and the run's contradictions among the findings,
/// and a table naming a benchmark the run does not have refused before anything runs.
#[test]
fn a_run_records_its_design_and_checks_it_against_the_run() {
    let env = Env::new();
    env.write(
        "w.toml",
        "threads = 1\nwarmup = \"1s\"\nquestion = \"worst=p99.9\"\n[benchmarks.\"b\"]\nthreads = 4\n",
    );
    let run = env.plumb(&[
        "run",
        "-n",
        "a",
        "true",
        "-n",
        "b",
        "true",
        "--runs",
        "5",
        "--warmup",
        "0",
        "--workload",
        "w.toml",
        "--export-json",
        "r.json",
    ]);
    run.assert_code(0);
    let doc = common::read_doc(&env.path("r.json"));
    let a = &doc.benchmarks[0];
    let b = &doc.benchmarks[1];
    assert_eq!(a.design.as_ref().unwrap().threads, Some(1));
    assert_eq!(b.design.as_ref().unwrap().threads, Some(4));
    let codes = |b: &plumb_model::Benchmark| -> Vec<String> {
        b.diagnostics.iter().map(|d| d.code().to_string()).collect()
    };
    for code in ["single-thread", "design-mismatch", "too-few-for-percentile"] {
        assert!(
            codes(a).contains(&code.to_string()),
            "{code}: {:?}",
            codes(a)
        );
    }
    assert!(
        !codes(b).contains(&"single-thread".to_string()),
        "{:?}",
        codes(b)
    );
    // The findings as printed (lines wrapped to the terminal: compared unwrapped).
    let flat = run.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "design-mismatch · a: the design declares warmup = 1.000 s but the run had none"
        ),
        "{flat}"
    );
    assert!(
        flat.contains("p99.9 of 5 samples rests on 0.0050 beyond it, fewer than 10"),
        "{flat}"
    );

    let typo = env.plumb(&[
        "run",
        "-n",
        "a",
        "true",
        "--runs",
        "3",
        "--workload",
        "w.toml",
        "--export-json",
        "t.json",
    ]);
    typo.assert_code(2);
    assert!(
        typo.stderr
            .contains("names \"b\" that this run does not have (its benchmarks: \"a\")"),
        "{}",
        typo.stderr
    );
    assert!(!env.path("t.json").exists());
}

/// `plumb load --workload`: load sent to loopback is a generator on its target; a design
/// declaring another rate and p99.9 from a second of 200/s are said, the design recorded.
#[test]
fn a_load_test_checks_its_design_against_the_run() {
    let env = Env::new();
    let port = common::stalling_server(1_000_000, std::time::Duration::ZERO);
    let url = format!("http://127.0.0.1:{port}/");
    env.write("w.toml", "rate = \"500/s\"\nquestion = \"worst=p99.9\"\n");
    let run = env.plumb(&[
        "load",
        &url,
        "--rate",
        "200",
        "--duration",
        "1s",
        "--warmup",
        "0s",
        "--workload",
        "w.toml",
        "--export-json",
        "l.json",
    ]);
    run.assert_code(0);
    let doc = common::read_doc(&env.path("l.json"));
    let b = &doc.benchmarks[0];
    assert!(b.design.is_some());
    let said: Vec<String> = b
        .diagnostics
        .iter()
        .map(|d| plumb_report::finding::message(&d.finding))
        .collect();
    let has = |words: &str| said.iter().any(|s| s.contains(words));
    assert!(
        has(&format!(
            "the load generator runs on the machine it measures ({url})"
        )),
        "{said:?}"
    );
    assert!(
        has("the design declares rate = 500.0/s but the run had 200.0/s"),
        "{said:?}"
    );
    assert!(has("p99.9 of 200 samples"), "{said:?}");
}
