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
    let llc = (machine.caches.iter())
        .filter(|c| c.kind != "Instruction")
        .max_by_key(|c| (c.level, c.size))
        .unwrap();
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
