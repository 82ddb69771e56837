//! `plumb run` end to end: ratios, parameters, shell start-up, exports, failures, signals; `env`.
mod common;

use common::{read_doc, Env};
use plumb_model::{DiagnosticCode, Exit, Metric, RunStatus, Verdict};

#[test]
fn two_sleeps_give_a_ratio_near_two_and_a_json_that_compare_reads() {
    let env = Env::new();
    let json = env.path("r.json");
    let run = env.plumb(&[
        "run",
        "sleep 0.01",
        "sleep 0.02",
        "--runs",
        "15",
        "--warmup",
        "1",
        "--export-json",
        json.to_str().unwrap(),
    ]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("Ratio") && !run.stdout.contains("RatioSD"),
        "the short report's columns: {}",
        run.stdout
    );
    let doc = read_doc(&json);
    assert_eq!(doc.benchmarks.len(), 2);
    assert!(doc
        .benchmarks
        .iter()
        .all(|b| b.samples.len() == 15 && b.warmup.len() == 1));
    assert!(doc.benchmarks[0].baseline && !doc.benchmarks[1].baseline);
    let c = &doc.comparisons[0];
    // 10 ms more sleep on top of the same spawn cost: the ratio is below 2 by the fixed
    // cost's share, and far above 1.
    assert!(c.ratio > 1.4 && c.ratio < 2.1, "ratio {}", c.ratio);
    assert_eq!(c.verdict, Verdict::Slower);
    // Samples are kept raw and in run order: each has its exit code and CPU times.
    let s = &doc.benchmarks[1].samples;
    assert!(s.values(&Metric::WallTime).unwrap()[0] >= 20_000_000);
    assert_eq!(s.exits()[0], Exit::Code(0));
    assert_eq!(s.values(&Metric::UserTime).unwrap().len(), s.len());

    // The same file against itself: never faster or slower (with 15 noisy samples at
    // 99.9 % it may not be *shown* equivalent either, which is honest).
    let exported = env.path("cmp.json");
    let cmp = env.plumb(&[
        "compare",
        json.to_str().unwrap(),
        json.to_str().unwrap(),
        "--export-json",
        exported.to_str().unwrap(),
    ]);
    cmp.assert_code(0);
    assert!(cmp.stdout.contains("×1.000"), "{}", cmp.stdout);
    assert!(
        !cmp.stdout.contains("faster") && !cmp.stdout.contains("slower"),
        "{}",
        cmp.stdout
    );
    // The export is a comparison document of its own: marker, version, both sources.
    let text = std::fs::read_to_string(&exported).unwrap();
    let raw: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(raw["format"], "plumb-comparison");
    assert_eq!(
        raw["format_version"],
        plumb_model::COMPARISON_FORMAT_VERSION
    );
    let back = plumb_model::ComparisonDocument::from_json(&text).unwrap();
    assert_eq!(back.base.path, json.to_str().unwrap());
    assert_eq!(back.comparisons.len(), doc.benchmarks.len());
    assert!(back.comparisons.iter().all(|c| c.ratio == 1.0), "{back:?}");

    // Any metric both results measured is compared by the same rule.
    let cmp = env.plumb(&[
        "compare",
        json.to_str().unwrap(),
        json.to_str().unwrap(),
        "--metric",
        "user-time",
        "--export-json",
        exported.to_str().unwrap(),
    ]);
    cmp.assert_code(0);
    assert!(
        cmp.stdout.contains("on user-time per operation"),
        "{}",
        cmp.stdout
    );
    let back =
        plumb_model::ComparisonDocument::from_json(&std::fs::read_to_string(&exported).unwrap())
            .unwrap();
    assert!(back
        .comparisons
        .iter()
        .all(|c| c.metric == Metric::UserTime));
    let cmp = env.plumb(&[
        "compare",
        json.to_str().unwrap(),
        json.to_str().unwrap(),
        "--metric",
        "instructions",
    ]);
    cmp.assert_code(2);
    assert!(
        cmp.stderr.contains("--metric instructions: not measured"),
        "{}",
        cmp.stderr
    );
}

#[test]
fn the_same_command_twice_in_one_run_is_never_called_faster_or_slower() {
    // Interleaved in one run, both copies see the same machine, so even with the rest of
    // the test suite loading the cores the verdict must not claim a difference. (Two
    // *separate* runs on a loaded machine can honestly differ: bench/same-command-verdicts.sh
    // repeats that design on a quiet machine.)
    let env = Env::new();
    let json = env.path("same.json");
    env.plumb(&[
        "run",
        "sleep 0.005",
        "sleep 0.005",
        "--runs",
        "30",
        "--sesoi",
        "5%",
        "--export-json",
        json.to_str().unwrap(),
    ])
    .assert_code(0);
    let doc = read_doc(&json);
    assert_eq!(doc.benchmarks[1].name, "sleep 0.005 (2)");
    let c = &doc.comparisons[0];
    assert!(
        matches!(c.verdict, Verdict::Equivalent | Verdict::Inconclusive),
        "{:?}: {:?}",
        c.verdict,
        c.reason
    );
}

#[test]
fn parameter_scan_and_list_expand_into_benchmarks() {
    let env = Env::new();
    let json = env.path("p.json");
    env.plumb(&[
        "run",
        "sleep 0.00{n}{unit}",
        "-P",
        "n",
        "1",
        "3",
        "-L",
        "unit",
        "s,",
        "--runs",
        "2",
        "--warmup",
        "0",
        "--export-json",
        json.to_str().unwrap(),
    ])
    .assert_code(0);
    let doc = read_doc(&json);
    let names: Vec<_> = doc.benchmarks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["sleep 0.001s", "sleep 0.002s", "sleep 0.003s"]);
    assert_eq!(doc.benchmarks[1].parameters["n"], "2");
}

#[test]
fn shell_start_up_is_measured_and_subtracted() {
    let env = Env::new();
    let json = env.path("s.json");
    env.plumb(&[
        "run",
        "--shell",
        "true",
        "--runs",
        "10",
        "--export-json",
        json.to_str().unwrap(),
    ])
    .assert_code(0);
    let doc = read_doc(&json);
    let b = &doc.benchmarks[0];
    let c = b.correction(&Metric::WallTime).expect("a correction");
    assert!(c.value > 0.0 && c.reason.contains("sh -c ''"), "{c:?}");
    let walls = b.samples.values(&Metric::WallTime).unwrap();
    let raw_mean = walls.iter().map(|&ns| ns as f64).sum::<f64>() / walls.len() as f64;
    let t = b.time().unwrap();
    assert!((t.summary.mean - (raw_mean - c.value)).abs() < 1.0);
    match &doc.settings.producer {
        plumb_model::ProducerSettings::Commands(s) => assert_eq!(s.shell.as_deref(), Some("sh")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn exports_markdown_and_csv() {
    let env = Env::new();
    let (md, csv) = (env.path("r.md"), env.path("r.csv"));
    env.plumb(&[
        "run",
        "true",
        "sleep 0.002",
        "--runs",
        "5",
        "--warmup",
        "0",
        "--export-markdown",
        md.to_str().unwrap(),
        "--export-csv",
        csv.to_str().unwrap(),
    ])
    .assert_code(0);
    let md = std::fs::read_to_string(md).unwrap();
    assert!(md.starts_with("| Benchmark | Mean |"), "{md}");
    assert!(md.contains("| true (baseline) |"), "{md}");
    assert!(md.contains("**Verdicts**"), "{md}");
    let csv = std::fs::read_to_string(csv).unwrap();
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().starts_with("name,n,mean_ns,error_ns"));
    assert!(lines.next().unwrap().starts_with("true,5,"));
    assert!(lines.next().unwrap().starts_with("sleep 0.002,5,"));
}

#[test]
fn failing_command_stops_with_its_status_and_keeps_what_was_measured() {
    let env = Env::new();
    let json = env.path("f.json");
    let run = env.plumb(&[
        "run",
        "true",
        "sh -c 'echo oh-no >&2; exit 3'",
        "--order",
        "round-robin",
        "--warmup",
        "0",
        "--runs",
        "5",
        "--export-json",
        json.to_str().unwrap(),
    ]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("exited with status 3"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("oh-no"), "{}", run.stderr);
    let doc = read_doc(&json);
    assert!(matches!(doc.status, RunStatus::Failed { .. }));
    assert_eq!(doc.benchmarks[0].samples.len(), 1);

    let json = env.path("g.json");
    env.plumb(&[
        "run",
        "sh -c 'exit 3'",
        "--ignore-failure",
        "--runs",
        "3",
        "--warmup",
        "0",
        "--export-json",
        json.to_str().unwrap(),
    ])
    .assert_code(0);
    let doc = read_doc(&json);
    assert!(doc.benchmarks[0]
        .samples
        .exits()
        .iter()
        .all(|e| *e == Exit::Code(3)));
    assert!(doc.benchmarks[0]
        .diagnostics
        .iter()
        .any(|d| d.code() == DiagnosticCode::FailedRuns));
}

/// Runs `sleep 0.02` many times, sends `signal` after 1.5 s, and returns the exit code,
/// stdout and the saved document.
fn stopped_by(signal: &str) -> (Option<i32>, String, plumb_model::ResultDocument) {
    let env = Env::new();
    let json = env.path("i.json");
    let run = env.plumb_signalled(
        &[
            "run",
            "sleep 0.02",
            "--runs",
            "100000",
            "--export-json",
            json.to_str().unwrap(),
        ],
        signal,
        std::time::Duration::from_millis(1500),
    );
    // -1: no exit code (killed by a signal).
    let code = Some(run.code).filter(|&c| c != -1);
    (code, run.stdout, read_doc(&json))
}

#[test]
fn ctrl_c_saves_and_prints_what_was_measured() {
    let (code, stdout, doc) = stopped_by("-INT");
    assert_eq!(code, Some(130));
    assert!(stdout.contains("Interrupted by Ctrl-C"), "{stdout}");
    assert_eq!(
        doc.status,
        RunStatus::Interrupted {
            signal: Some("Ctrl-C".into())
        }
    );
    let n = doc.benchmarks[0].samples.len();
    assert!((5..100_000).contains(&n), "{n} samples");
    assert!(doc.benchmarks[0]
        .samples
        .exits()
        .iter()
        .all(|e| *e == Exit::Code(0)));
}

/// SIGTERM and SIGHUP stop like Ctrl-C, exit 128 + their number, and are named.
#[test]
fn sigterm_and_sighup_exit_128_plus_the_signal_and_say_which() {
    for (signal, code, name) in [("-TERM", 143, "SIGTERM"), ("-HUP", 129, "SIGHUP")] {
        let (got, stdout, doc) = stopped_by(signal);
        assert_eq!(got, Some(code), "{signal}");
        assert!(
            stdout.contains(&format!("Interrupted by {name}")),
            "{stdout}"
        );
        assert!(!doc.benchmarks[0].samples.is_empty());
    }
}

/// SIGTERM sent to plumb alone (not to the terminal's process group) stops the command in
/// progress at once, instead of waiting for it; the runs done before it are kept, and the
/// run it cut short is not taken for a measurement (issue 24, defect 5).
#[test]
fn sigterm_stops_the_command_in_progress_and_keeps_the_runs_done() {
    let env = Env::new();
    let json = env.path("t.json");
    let counter = env.path("count");
    // Five quick runs, then one that would sleep for 30 s.
    let command = format!(
        "sh -c 'n=$(cat {c} 2>/dev/null || echo 0); echo $((n+1)) > {c}; [ $n -lt 5 ] || sleep 30'",
        c = counter.display()
    );
    let started = std::time::Instant::now();
    let run = env.plumb_signalled(
        &[
            "run",
            &command,
            "--warmup",
            "0",
            "--runs",
            "10",
            "--export-json",
            json.to_str().unwrap(),
        ],
        "-TERM",
        std::time::Duration::from_millis(2000),
    );
    let took = started.elapsed();
    assert!(
        took < std::time::Duration::from_secs(10),
        "stopped at once, not after the 30 s sleep: {took:?}"
    );
    assert_eq!(run.code, 143, "{}", run.stderr);
    assert!(
        run.stdout.contains("Interrupted by SIGTERM"),
        "{}",
        run.stdout
    );
    let doc = read_doc(&json);
    assert_eq!(doc.benchmarks[0].samples.len(), 5, "the five runs done");
    assert!(doc.benchmarks[0]
        .samples
        .exits()
        .iter()
        .all(|e| *e == Exit::Code(0)));
}

#[test]
fn env_prints_the_record_and_json() {
    let env = Env::new();
    let run = env.plumb(&["env"]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("kernel") && run.stdout.contains("caches"),
        "{}",
        run.stdout
    );
    let run = env.plumb(&["env", "--json"]);
    run.assert_code(0);
    let rec: plumb_model::Environment = serde_json::from_str(&run.stdout).unwrap();
    assert!(rec.threads.unwrap_or(0) >= 1);
}

/// The hidden `--debug-fake-runs` (hyperfine's --debug-mode): the real binary with a
/// spawner that runs nothing, so its whole output and its run counts are exact.
#[test]
fn a_fake_run_prints_exactly_the_table_and_verdict_of_its_known_times() {
    let env = Env::new();
    let run = env.plumb(&[
        "run",
        "--debug-fake-runs",
        "-v",
        "--runs",
        "12",
        "--warmup",
        "1",
        "--color",
        "never",
        "fast 10ms",
        "slow 25ms",
    ]);
    run.assert_code(0);
    let expected = " Benchmark            │     Mean │ Error │ StdDev │   Median │      Min │      Max │ Ratio │ RatioSD │     User │      Sys │  MaxRSS │  N
──────────────────────┼──────────┼───────┼────────┼──────────┼──────────┼──────────┼───────┼─────────┼──────────┼──────────┼─────────┼────
 fast 10ms (baseline) │ 10.00 ms │  0 ms │   0 ms │ 10.00 ms │ 10.00 ms │ 10.00 ms │  1.00 │    0.00 │ 5.000 ms │ 1.000 ms │ 1.0 MiB │ 12
 slow 25ms            │ 25.00 ms │  0 ms │   0 ms │ 25.00 ms │ 25.00 ms │ 25.00 ms │  2.50 │    0.00 │ 12.50 ms │ 2.500 ms │ 1.0 MiB │ 12
  Error: this run's 99.9% interval; the next run may land outside it (5 runs kept with --save measure the drift)

Verdicts on the mean (SESOI ±2%, 99.9% confidence):
  slow 25ms  2.50× slower [2.50, 2.50]
      +150.0%: the whole ratio CI [2.500, 2.500] lies beyond the SESOI of ±2%; Welch p<1e-15, Mann-Whitney p=1.91e-6; both samples are constant: the clock's resolution, not the code, may set this difference
";
    assert_eq!(run.stdout, expected, "\n{}", run.stdout);
    // The default run counts, exactly: 3 s of 10 ms runs after 3 warm-up runs.
    let json = env.path("f.json");
    env.plumb(&[
        "run",
        "--debug-fake-runs",
        "--export-json",
        json.to_str().unwrap(),
        "fast 10ms",
    ])
    .assert_code(0);
    let b = &read_doc(&json).benchmarks[0];
    assert_eq!((b.warmup.len(), b.samples.len()), (3, 300));
}

/// A speed-up is said as people say it: "2.50× faster", as hyperfine does, not "×0.400
/// faster"; the table keeps the ratio (issue 24, defect 19).
#[test]
fn a_speed_up_is_said_the_way_people_say_it() {
    let env = Env::new();
    let run = env.plumb(&[
        "run",
        "--debug-fake-runs",
        "--runs",
        "12",
        "--color",
        "never",
        "slow 25ms",
        "fast 10ms",
    ]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("fast 10ms  2.50× faster [2.50, 2.50]"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("×0.400 ["), "{}", run.stdout);
    assert!(
        run.stdout.contains("│  0.40 │"),
        "the ratio in the table: {}",
        run.stdout
    );
}

/// The default report keeps to what changes a decision — the table's main columns, the
/// verdicts, one line per finding — in a dozen lines a terminal can show; -v prints every
/// column and each finding's figures and advice (issue 24, defect 21: the README's main
/// job printed 36 lines up to 177 columns). A sweep gives no verdict per size.
#[test]
fn the_default_report_is_short_and_v_is_full() {
    let env = Env::new();
    // Fake runs (each `sleep S` takes exactly S): the layout is the question here, and a
    // busy machine must not change what it lays out.
    let args = [
        "run",
        "--debug-fake-runs",
        "--runs",
        "30",
        "--color",
        "never",
        "sleep 0.01",
        "sleep 0.02",
    ];
    let run = env.plumb(&args);
    run.assert_code(0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    // The table and the verdicts in a few lines; then one entry per finding (how many a
    // shared machine raises varies from run to run: a finding's words may wrap, under its
    // mark, but bring no figures or advice).
    let head = lines
        .iter()
        .take_while(|l| !l.starts_with("Diagnostics"))
        .count();
    // (One line under the table says what its Error holds: this run's noise alone.)
    assert!(
        head <= 11,
        "{head} lines before the findings:\n{}",
        run.stdout
    );
    for l in lines.iter().skip(head + 1) {
        let entry = ["  ! ", "  ✗ ", "  machine: ", "      ", "(-v"]
            .iter()
            .any(|p| l.starts_with(p));
        assert!(entry, "not a finding's line: {l:?}\n{}", run.stdout);
    }
    let widest = lines.iter().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 120, "{widest} columns:\n{}", run.stdout);
    assert!(run.stdout.contains("× slower ["), "{}", run.stdout);
    assert!(
        !run.stdout.contains("→ "),
        "no advice by default: {}",
        run.stdout
    );

    let mut verbose = args.to_vec();
    verbose.push("-v");
    let full = env.plumb(&verbose);
    full.assert_code(0);
    for column in ["RatioSD", "User", "Sys", "MaxRSS"] {
        assert!(full.stdout.contains(column), "{column}: {}", full.stdout);
    }

    // A sweep of fake runs: its table, and no "slower than the smallest size" per size.
    let sweep = env.plumb(&[
        "run",
        "--debug-fake-runs",
        "--runs",
        "12",
        "--color",
        "never",
        "-L",
        "size",
        "16K,64K,256K",
        "walk {size}",
    ]);
    sweep.assert_code(0);
    assert!(sweep.stdout.contains("Sweep "), "{}", sweep.stdout);
    assert!(!sweep.stdout.contains("Verdicts"), "{}", sweep.stdout);
}

/// Issue 46, item 5: `--until-settled` adds interleaved rounds of two commands until the
/// group-sequential verdict settles (plumb revs' design), and stops there: fake runs of
/// exactly known times settle at the first look (round 10), slower for +5 %, equivalent
/// for the same time; the rounds and every look are kept in the result.
#[test]
fn until_settled_stops_at_the_look_that_settles_the_verdict() {
    let env = Env::new();
    let json = env.path("r.json");
    let run = |b: &str| {
        let r = env.plumb(&[
            "run",
            "--debug-fake-runs",
            "--until-settled",
            "--runs-per-round",
            "4",
            "--warmup",
            "0",
            "--color",
            "never",
            "--export-json",
            json.to_str().unwrap(),
            "a 10ms",
            b,
        ]);
        r.assert_code(0);
        (r, read_doc(&json))
    };
    let (r, doc) = run("b 10.5ms");
    let rounds = doc.rounds.as_ref().expect("the rounds are kept");
    assert_eq!(rounds.ended, plumb_model::Ending::Settled);
    assert_eq!(rounds.design.runs_per_round, 4);
    // --pairing auto: a duet where two CPUs are allowed, as plumb revs pairs its runs.
    let duet = matches!(rounds.design.pairing, plumb_model::Pairing::Duet { .. });
    let plumb_model::ProducerSettings::Commands(ran) = &doc.settings.producer else {
        panic!("a command run's settings")
    };
    assert_eq!(ran.order == plumb_model::RoundOrder::Duet, duet, "{ran:?}");
    assert_eq!(
        duet,
        plumb_command::two_cpus().is_some(),
        "{:?}",
        rounds.design
    );
    assert_eq!(rounds.looks.len(), 1, "{:?}", rounds.looks);
    assert_eq!(rounds.looks[0].rounds, 10);
    // Ten rounds of four runs a side, and not one more.
    assert_eq!(doc.benchmarks[1].samples.len(), 40);
    let c = &doc.comparisons[0];
    assert_eq!(c.verdict, plumb_model::Verdict::Slower);
    assert!((c.ratio - 1.05).abs() < 1e-9, "{}", c.ratio);
    assert!(r.stdout.contains("Rounds until settled:"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("round  10: B/A 1.050× [1.050, 1.050]  slower"),
        "{}",
        r.stdout
    );
    let (_, doc) = run("b 10ms");
    assert_eq!(doc.comparisons[0].verdict, plumb_model::Verdict::Equivalent);
}

/// `--until-settled` takes two commands run directly, and a question a round can answer;
/// each refusal says why before anything runs.
#[test]
fn until_settled_refuses_what_its_rounds_cannot_judge() {
    let env = Env::new();
    let refused = |extra: &[&str], says: &str| {
        let mut args = vec!["run", "--debug-fake-runs", "--until-settled"];
        args.extend_from_slice(extra);
        let r = env.plumb(&args);
        r.assert_code(2);
        assert!(r.stderr.contains(says), "{}", r.stderr);
    };
    refused(
        &["a 1ms", "b 1ms", "c 1ms"],
        "compares two commands, and this run has 3",
    );
    refused(&["--shell", "a 1ms", "b 1ms"], "without --shell");
    refused(
        &["--question", "p99", "a 1ms", "b 1ms"],
        "its p99 would be its slowest run",
    );
    refused(&["--runs", "5", "a 1ms", "b 1ms"], "cannot be used with");
}
