//! Other tools' exports read wherever a result is read: compare and show.
mod common;

use common::{Env, FIXTURES};

#[test]
fn a_hyperfine_export_is_compared_and_shown() {
    let env = Env::new();
    let h = format!("{FIXTURES}/hyperfine.json");
    let run = env.plumb(&["compare", &h, &h, "--pair", "sleep 0.01=sleep 0.02"]);
    run.assert_code(1);
    assert!(
        run.stderr.contains("is a hyperfine export"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("sleep 0.01 → sleep 0.02"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("1.9") && run.stdout.contains("× slower ["),
        "{}",
        run.stdout
    );
    let run = env.plumb(&["compare", &h, &h]);
    run.assert_code(0);
    assert!(run.stdout.contains("×1.000"), "{}", run.stdout);
    let run = env.plumb(&["show", &h]);
    run.assert_code(0);
    assert!(run.stdout.contains("a hyperfine export"), "{}", run.stdout);
    assert!(run.stdout.contains("sleep 0.02"), "{}", run.stdout);
    assert!(run.stdout.contains("slower"), "{}", run.stdout);
}

/// Issue 45, defect 13: hyperfine 2.0's JSON (schema 2: each run's metrics in
/// `measurements`) is read, every metric of it, under hyperfine's names too; it was "not
/// a plumb result, nor any format plumb imports".
#[test]
fn a_hyperfine_2_export_is_read_with_all_its_metrics() {
    let env = Env::new();
    let h = format!("{FIXTURES}/hyperfine2/hyperfine2-all.json");
    let run = env.plumb(&["show", &h]);
    run.assert_code(0);
    assert!(run.stdout.contains("a hyperfine export"), "{}", run.stdout);
    // Its own names (-n 'sleep {ms} ms'), the parameter, and the 20 ms sleep slower.
    assert!(run.stdout.contains("sleep 20 ms"), "{}", run.stdout);
    assert!(run.stdout.contains("slower"), "{}", run.stdout);
    let json = env.path("h2.json");
    let run = env.plumb(&["show", &h, "--export-json", json.to_str().unwrap()]);
    run.assert_code(0);
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let b = &doc["benchmarks"][1];
    assert_eq!(b["name"], "sleep 20 ms");
    assert_eq!(b["command"], "sleep 0.020", "{b}");
    assert_eq!(b["parameters"]["ms"], "20", "{b}");
    assert_eq!(b["samples"]["count"], 10, "{b}");
    let values = b["samples"]["values"].as_object().unwrap();
    let kept: Vec<&str> = values.keys().map(String::as_str).collect();
    assert_eq!(
        kept,
        [
            "cpu-time",
            "peak-rss",
            "system-time",
            "user-time",
            "wall-time"
        ]
    );
    // Seconds as nanoseconds, bytes as bytes: 20 ms sleeps, a few MiB resident.
    let wall = values["wall-time"][0].as_u64().unwrap();
    assert!((20_000_000..100_000_000).contains(&wall), "{wall}");
    let rss = values["peak-rss"][0].as_u64().unwrap();
    assert!((1 << 20..1 << 30).contains(&rss), "{rss}");
    assert_eq!(doc["environment"]["os"], "Linux", "{}", doc["environment"]);
    assert_eq!(doc["started"], "2026-11-29T13:31:56.000000000Z");
    for (asked, stored) in [
        ("memory_peak_resident", "peak-rss"),
        ("time_cpu", "cpu-time"),
    ] {
        let r = env.plumb(&["compare", &h, &h, "--metric", asked]);
        r.assert_code(0);
        assert!(
            r.stdout.contains(&format!("on {stored}")),
            "{asked}: {}",
            r.stdout
        );
    }
    let wall = env.plumb(&["compare", &h, &h, "--metric", "time_wall_clock"]);
    assert_eq!(wall.stdout, env.plumb(&["compare", &h, &h]).stdout);
    // Schema 1 and 2 compare with each other.
    let v1 = format!("{FIXTURES}/hyperfine.json");
    let r = env.plumb(&["compare", &v1, &h, "--pair", "sleep 0.01=sleep 10 ms"]);
    assert!(
        r.stdout.contains("sleep 0.01 → sleep 10 ms"),
        "{}",
        r.stdout
    );
    // Runs that failed (exit 3, killed by SIGKILL: hyperfine writes 128 + 9) are failures.
    let f = format!("{FIXTURES}/hyperfine2/hyperfine2-failures.json");
    let r = env.plumb(&["show", &f]);
    r.assert_code(0);
    assert!(r.stdout.contains("3 of 3 runs failed"), "{}", r.stdout);
}

#[test]
fn a_google_benchmark_export_is_compared_and_shown() {
    let env = Env::new();
    let g = format!("{FIXTURES}/gbench.json");
    let run = env.plumb(&["show", &g]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("a Google Benchmark export"),
        "{}",
        run.stdout
    );
    // Five repetitions each, aggregates skipped.
    assert!(run.stdout.contains("BM_sum/4096"), "{}", run.stdout);
    assert!(run.stdout.contains("│ 5\n"), "{}", run.stdout);
    // Issue 45, defect 15: no benchmark of the file is a baseline for the others (its
    // first was: "BM_StrFind/4096 243.13× faster" than an unrelated BM_Sort/1024).
    for word in ["baseline", "slower", "faster", "Verdicts"] {
        assert!(!run.stdout.contains(word), "{word}: {}", run.stdout);
    }
    let run = env.plumb(&["compare", &g, &g]);
    run.assert_code(0);
    assert!(run.stdout.contains("BM_sum/1024"), "{}", run.stdout);
}

/// hyperfine run with one command twice: the second of one name is left out, said with
/// where it is, rather than both paired with the other file's one (issue 24, defect 10;
/// issue 31: the rest of the file is read); a plumb document with two of one name is
/// refused by compare.
#[test]
fn two_benchmarks_of_one_name_are_not_both_compared() {
    let env = Env::new();
    let h = format!("{FIXTURES}/hyperfine.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&h).unwrap()).unwrap();
    let first = v["results"][0].clone();
    v["results"].as_array_mut().unwrap()[1] = first;
    let twice = env.write("twice.json", &v.to_string());
    let run = env.plumb(&["compare", twice.to_str().unwrap(), &h]);
    run.assert_code(0);
    assert!(
        run.stderr
            .contains("twice.json: results[1]: a second benchmark named \"sleep 0.01\"; left out"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("Comparing 1 benchmark(s)"),
        "{}",
        run.stdout
    );

    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../plumb-model/tests/fixtures/run2-v1.json"
    );
    let converted = env.path("doc.json");
    env.plumb(&[
        "show",
        fixture,
        "--export-json",
        converted.to_str().unwrap(),
    ])
    .assert_code(0);
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&converted).unwrap()).unwrap();
    let name = doc["benchmarks"][0]["name"].clone();
    doc["benchmarks"][1]["name"] = name;
    let dup = env.write("dup.json", &doc.to_string());
    let run = env.plumb(&["compare", fixture, dup.to_str().unwrap()]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("has two benchmarks named"),
        "{}",
        run.stderr
    );
}

/// A negative time in a hyperfine export is not read as 0: its command is not imported,
/// saying where and why it happens (issue 24, defect 11), and the other is read (issue 31).
#[test]
fn a_negative_hyperfine_time_is_not_imported() {
    let env = Env::new();
    let h = format!("{FIXTURES}/hyperfine.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&h).unwrap()).unwrap();
    v["results"][1]["times"][3] = serde_json::json!(-0.0012);
    let bad = env.write("negative.json", &v.to_string());
    for args in [
        vec!["show", bad.to_str().unwrap()],
        vec!["compare", &h, bad.to_str().unwrap()],
    ] {
        let run = env.plumb(&args);
        run.assert_code(0);
        assert!(
            run.stderr
                .contains("results[1] (sleep 0.02): times[3] is -0.0012 (seconds), below zero"),
            "{}",
            run.stderr
        );
    }
    let run = env.plumb(&["compare", &h, bad.to_str().unwrap()]);
    assert!(
        run.stdout
            .contains("cannot compare: the candidate failed: not imported: times[3] is -0.0012"),
        "{}",
        run.stdout
    );
}

/// Figures without noise (issue 24, defect 20): a recorded float as its significant
/// figures, not 111599999.99999999; "no significant difference" with the level it was
/// judged at.
#[test]
fn figures_are_printed_without_noise_and_with_their_level() {
    let env = Env::new();
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../plumb-model/tests/fixtures/inprocess-v1.json"
    );
    let text = std::fs::read_to_string(fixture).unwrap();
    let noisy = text.replacen(
        "\"upper_fence_ns\": 14.52",
        "\"upper_fence_ns\": 111599999.99999999",
        1,
    );
    assert_ne!(noisy, text);
    let path = env.write("noisy.json", &noisy);
    let run = env.plumb(&["show", path.to_str().unwrap()]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("upper_fence_ns=111600000"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("99999999"), "{}", run.stdout);

    // Two noisy samples of one program: no difference shown either way.
    let times = |shift: f64| -> Vec<f64> {
        (0..12)
            .map(|i| 0.010 + 0.002 * ((i * 7 % 12) as f64 / 11.0) + shift)
            .collect()
    };
    let doc = |shift: f64| {
        serde_json::json!({"results": [{"command": "prog", "times": times(shift)}]}).to_string()
    };
    let (a, b) = (
        env.write("a.json", &doc(0.0)),
        env.write("b.json", &doc(0.0004)),
    );
    let run = env.plumb(&["compare", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(
        run.stdout
            .contains("no difference in means significant at 99.9% confidence (α=1e-3; Welch p="),
        "{}",
        run.stdout
    );
}

/// Go's benchmark output (issue 31): each result line a sample; the failed benchmark said;
/// two saved outputs compared; test2json read as the text it carries; shown, reported and
/// kept in the history like plumb's own.
#[test]
fn go_benchmark_output_is_shown_compared_reported_and_kept() {
    let env = Env::new();
    let go = |f: &str| format!("{FIXTURES}/go/{f}");
    let run = env.plumb(&["show", &go("go-v.txt")]);
    run.assert_code(0);
    assert!(
        run.stderr
            .contains("is a Go testing export: read are each benchmark's result lines"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("BenchmarkSum/size=1024-2"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("✗ failed: the benchmark failed: sums_test.go:39: setting up"),
        "{}",
        run.stdout
    );
    // The other package's failing test and log lines are passed over, not benchmarks.
    assert!(!run.stdout.contains("TestBroken"), "{}", run.stdout);
    let run = env.plumb(&["show", &go("go-test2json.json")]);
    run.assert_code(0);
    assert!(run.stdout.contains("BenchmarkAlloc-2"), "{}", run.stdout);
    // `t += x % 7` made the sum slower: five lines a side, both sizes judged slower.
    let run = env.plumb(&["compare", &go("go-before.txt"), &go("go-after.txt")]);
    run.assert_code(1);
    assert!(
        run.stdout.contains("BenchmarkSum/size=64-2"),
        "{}",
        run.stdout
    );
    assert_eq!(
        run.stdout.matches("× slower [").count(),
        2,
        "{}",
        run.stdout
    );
    let run = env.plumb(&["report", &go("go-v.txt"), "-o", "-"]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("BenchmarkSum/size=64-2"),
        "{}",
        &run.stdout[..200.min(run.stdout.len())]
    );
    let store = env.path("h.db");
    let run = env.plumb(&[
        "history",
        "add",
        &go("go-before.txt"),
        "--history",
        store.to_str().unwrap(),
    ]);
    run.assert_code(0);
    let run = env.plumb(&["history", "list", "--history", store.to_str().unwrap()]);
    assert!(
        run.stdout.contains("BenchmarkSum/size=1024-2"),
        "{}",
        run.stdout
    );
}

/// criterion's output directory (issue 31): every sample, compared between two runs.
#[test]
fn a_criterion_directory_is_shown_and_compared() {
    let env = Env::new();
    let before = format!("{FIXTURES}/criterion-before");
    let run = env.plumb(&["show", &before]);
    run.assert_code(0);
    assert!(
        run.stderr
            .contains("is a criterion export: read are each benchmark's samples"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("sum128") && run.stdout.contains("spin_10us"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("│ 100\n"), "{}", run.stdout);
    let after = format!("{FIXTURES}/criterion-after");
    let run = env.plumb(&["compare", &before, &after]);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    assert!(
        run.stdout.contains("sum128") && run.stdout.contains("spin_10us"),
        "{}",
        run.stdout
    );
    // A directory that is not criterion's: one line naming it.
    let empty = env.path("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let run = env.plumb(&["show", empty.to_str().unwrap()]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("neither a criterion output directory"),
        "{}",
        run.stderr
    );
}

/// `--format NAME` reads a file as that tool's, and says so when it is not (issue 31).
#[test]
fn a_format_named_is_read_as_that_tools_or_refused_in_one_line() {
    let env = Env::new();
    let go = format!("{FIXTURES}/go/go-before.txt");
    let run = env.plumb(&["show", "--format", "go", &go]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("BenchmarkSum/size=64-2"),
        "{}",
        run.stdout
    );
    let run = env.plumb(&["show", "--format", "hyperfine", &go]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("go-before.txt: not JSON"),
        "{}",
        run.stderr
    );
    let run = env.plumb(&["compare", "--format", "criterion", &go, &go]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("criterion's results are a directory"),
        "{}",
        run.stderr
    );
    let run = env.plumb(&["show", "--format", "nosuch", &go]);
    run.assert_code(2);
    assert!(
        run.stderr.contains(
            "plumb imports hyperfine, google-benchmark, criterion, go, pytest-benchmark, jmh, benchmarkdotnet, asv, catch2, gungraun, bmf"
        ),
        "{}",
        run.stderr
    );
    // A criterion directory on a report page, both runs compared there.
    let before = format!("{FIXTURES}/criterion-before");
    let after = format!("{FIXTURES}/criterion-after");
    let run = env.plumb(&["report", &before, &after, "-o", "-"]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("sum128"),
        "{}",
        &run.stdout[..200.min(run.stdout.len())]
    );
}

/// pytest-benchmark's JSON (issue 31): each round a sample; a slower sum judged slower on
/// both sizes; a run saved without its data said to be a summary, not invented into
/// samples.
#[test]
fn pytest_benchmark_json_is_compared_and_a_summary_only_is_said() {
    let env = Env::new();
    let py = |f: &str| format!("{FIXTURES}/pytest/{f}");
    let run = env.plumb(&[
        "compare",
        &py("pytest-before.json"),
        &py("pytest-after.json"),
    ]);
    run.assert_code(1);
    assert!(
        run.stderr
            .contains("is a pytest-benchmark export: read are each benchmark's rounds"),
        "{}",
        run.stderr
    );
    for size in ["64", "1024"] {
        let line = format!("test_sums.py::test_sum[{size}]\n");
        let at = run
            .stdout
            .find(&line)
            .unwrap_or_else(|| panic!("{}", run.stdout));
        assert!(
            run.stdout[at..]
                .lines()
                .nth(1)
                .unwrap()
                .contains("× slower ["),
            "{}",
            run.stdout
        );
    }
    // Saved without its data: pytest-benchmark's summary, judged from mean, deviation
    // and count against the rounds of the other file, and said to be that.
    let summary = py("pytest-saved-summary.json");
    let run = env.plumb(&["show", &summary]);
    run.assert_code(0);
    assert!(
        run.stderr.contains(
            "3 of 3 benchmarks carry pytest-benchmark's own summary only (test_sums.py::test_sum[64], test_sums.py::test_sum[1024] and test_sums.py::test_builtin_sum)"
        ),
        "{}",
        run.stderr
    );
    // test_sum[1024]: mean 30.38 µs, stddev 7.576 µs, 61 rounds.
    let row = run
        .stdout
        .lines()
        .find(|l| l.contains("test_sum[1024]"))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    assert!(
        row.contains("30.38 µs") && row.contains("7576 ns") && row.trim_end().ends_with(" 61"),
        "{row}"
    );
    let run = env.plumb(&["compare", &summary, &py("pytest-after.json")]);
    assert!(
        run.stdout
            .contains("judged from each side's mean, standard deviation and count"),
        "{}",
        run.stdout
    );
}

/// JMH's JSON and Bencher Metric Format (issue 31): JMH's forks are launches, so the
/// mean's interval is over them; BMF's single values are kept as a summary, from which no
/// verdict comes, and compare says what it would need.
#[test]
fn jmh_forks_are_launches_and_bmf_is_a_summary_without_a_verdict() {
    let env = Env::new();
    let jmh = format!("{FIXTURES}/jmh/jmh-avgt.json");
    let run = env.plumb(&["show", &jmh]);
    run.assert_code(0);
    assert!(
        run.stderr
            .contains("is a JMH export: read are each benchmark's measured iterations"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("bench.Sums.sum(size=1024)"),
        "{}",
        run.stdout
    );
    let run = env.plumb(&[
        "show",
        "--format",
        "jmh",
        &format!("{FIXTURES}/jmh/jmh-sample.json"),
    ]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("bench.Sums.sum(size=64) [sample]"),
        "{}",
        run.stdout
    );
    let bmf = format!("{FIXTURES}/bmf/report_latency.json");
    let run = env.plumb(&["compare", &bmf, &bmf]);
    run.assert_code(0);
    assert!(
        run.stderr
            .contains("a summary: one value per benchmark and measure"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains(
            "has a value of an unnamed statistic, an interval of an unnamed statistic at no stated level"
        ),
        "{}",
        run.stdout
    );
}

/// Issue 45, defect 16: in throughput mode plumb's mean (of each iteration's time per
/// operation) is said beside JMH's score inverted, which a user checks it against; with
/// two forks a comparison says that one degree of freedom between them, not a mean near
/// zero, leaves it unsettled, and what `-f` settles it.
#[test]
fn jmh_throughput_is_set_beside_its_score_and_two_forks_are_said() {
    let env = Env::new();
    let thrpt = format!("{FIXTURES}/jmh/jmh-thrpt.json");
    let run = env.plumb(&["show", &thrpt]);
    run.assert_code(0);
    assert!(
        run.stderr.contains(
            "(bench.Sums.sum(size=64) [thrpt]): throughput: plumb's figures are each iteration's time per operation; their mean, 14.86 ns, is +2.3% from JMH's score of 68840 ops/ms inverted (14.53 ns)"
        ),
        "{}",
        run.stderr
    );
    let avgt = format!("{FIXTURES}/jmh/jmh-avgt.json");
    let pair = "bench.Sums.sum(size=64) [thrpt]=bench.Sums.sum(size=64)";
    let run = env.plumb(&["compare", &thrpt, &avgt, "--pair", pair]);
    assert!(
        run.stdout.contains(
            "rests on 2 launches (JMH's forks): one degree of freedom between them, so at 99.9% confidence its interval reaches zero"
        ) && run.stdout.contains("(JMH's -f 5, plumb-bench's --launches 5)"),
        "{}",
        run.stdout
    );
}

/// BenchmarkDotNet's full JSON (issue 31): the result phase is read, each iteration a
/// sample; a brief export is BenchmarkDotNet's summary, and said so.
#[test]
fn benchmarkdotnet_full_json_is_shown_and_a_brief_one_said() {
    let env = Env::new();
    let full = format!("{FIXTURES}/bdn/memory-report-full.json");
    let run = env.plumb(&["show", &full]);
    run.assert_code(0);
    assert!(
        run.stderr.contains(
            "is a BenchmarkDotNet export: read are each benchmark's result-phase iterations"
        ),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("AllocEmptyList"), "{}", run.stdout);
    let brief = format!("{FIXTURES}/bdn/brief-no-measurements.json");
    let run = env.plumb(&["show", &brief]);
    run.assert_code(0);
    assert!(
        run.stderr
            .contains("carry BenchmarkDotNet's own summary only"),
        "{}",
        run.stderr
    );
}

/// asv, Catch2 and gungraun (issue 31): asv's samples on one side meet its summary (the
/// median's 99 % interval) on the other; Catch2's summaries are judged from mean,
/// deviation and count; gungraun's counts by their ratio on instructions. Each is
/// reported and kept; a summary without a mean and median is kept in no series.
#[test]
fn asv_catch2_and_gungraun_are_compared_reported_and_kept() {
    let env = Env::new();
    let asv = |f: &str| format!("{FIXTURES}/asv/results/vm/{f}");
    let (before, after) = (asv("asv-before.json"), asv("asv-after.json"));
    // asv's own 99 % interval cannot support the 99.9 % asked: no verdict, and why.
    let run = env.plumb(&["compare", &before, &after]);
    run.assert_code(0);
    assert!(run.stderr.contains("is an asv export"), "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "cannot compare: the two intervals of the median hold together at 98%, below the 99.9% asked (judge at that level with --confidence 98%)"
        ),
        "{}",
        run.stdout
    );
    let run = env.plumb(&["compare", &before, &after, "--confidence", "98%"]);
    run.assert_code(1);
    for line in [
        "median 1.572 µs → 2.488 µs   1.58× slower [1.33, 1.99]",
        "judged from each side's interval of the median (the harness's own where it kept no samples), which hold together at 98% confidence",
        "compare that with --metric",
    ] {
        assert!(run.stdout.contains(line), "{line}\n{}", run.stdout);
    }
    let c2 = |f: &str| format!("{FIXTURES}/catch2/{f}");
    let run = env.plumb(&["compare", &c2("catch2-before.xml"), &c2("catch2-after.xml")]);
    run.assert_code(1);
    for line in [
        "35.50 ns → 99.51 ns   2.80× slower [2.37, 3.23]",
        "judged from each side's mean, standard deviation and count (Welch p=1.87e-15",
    ] {
        assert!(run.stdout.contains(line), "{line}\n{}", run.stdout);
    }
    // A summary answers the statistic it holds: another question asked is refused.
    let run = env.plumb(&[
        "compare",
        &c2("catch2-before.xml"),
        &c2("catch2-after.xml"),
        "--question",
        "typical",
    ]);
    assert!(
        run.stdout.contains(
            "cannot compare: the harnesses' summaries answer the mean, not the median asked"
        ),
        "{}",
        run.stdout
    );
    let gg = |f: &str| format!("{FIXTURES}/gungraun/{f}");
    let run = env.plumb(&["compare", &gg("before"), &gg("after.jsonl")]);
    run.assert_code(1);
    for line in [
        "on instructions per operation",
        "242.00 → 961.00   3.97× slower [3.97, 3.97]",
        "exact for the run it simulated: the ratio alone decides",
    ] {
        assert!(run.stdout.contains(line), "{line}\n{}", run.stdout);
    }
    let run = env.plumb(&["report", &c2("catch2-before.xml"), "-o", "-"]);
    run.assert_code(0);
    assert!(run.stdout.contains("sums/sum 1024"), "report");
    let store = env.path("h.db");
    let store = store.to_str().unwrap();
    let summary = format!("{FIXTURES}/pytest/pytest-saved-summary.json");
    for file in [&summary, &c2("catch2-before.xml")] {
        let run = env.plumb(&["history", "add", file, "--history", store]);
        run.assert_code(0);
        let outside = run.stderr.contains("kept with the run but in no series");
        assert_eq!(outside, file.ends_with(".xml"), "{}", run.stderr);
    }
    let run = env.plumb(&["history", "list", "--history", store]);
    assert!(
        run.stdout.contains("test_sums.py::test_sum[1024]"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("sums/sum 64"), "{}", run.stdout);
}

/// Issue 45, defect 20: an import carries no machine record: `show --environment` says so
/// instead of "virtualization: none detected", and its history series is labelled
/// "machine not recorded", apart from machines plumb read, never "bare metal".
#[test]
fn an_import_invents_no_machine() {
    let env = Env::new();
    let h = format!("{FIXTURES}/hyperfine.json");
    let r = env.plumb(&["show", "--environment", &h]);
    r.assert_code(0);
    assert!(
        r.stdout
            .contains("The machine it was measured on: not recorded"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("none detected"), "{}", r.stdout);
    env.plumb(&["history", "add", "--history", "h.db", "--commit", "c1", &h])
        .assert_code(0);
    let list = env.plumb(&["history", "--history", "h.db", "show", "1"]);
    list.assert_code(0);
    assert!(
        list.stdout.contains("machine not recorded"),
        "{}",
        list.stdout
    );
    assert!(!list.stdout.contains("bare metal"), "{}", list.stdout);
}

/// Issue 45, defect 17: `--metric` takes a harness's own names for what plumb stores
/// (Go's `B/op`, `allocs/op`, `widgets/op`), and a metric a file lacks is refused with
/// the ones it measures.
#[test]
fn a_harness_names_its_metrics_its_own_way() {
    let env = Env::new();
    let go = format!("{FIXTURES}/go/go-v.txt");
    for (asked, stored) in [
        ("B/op", "allocated-bytes"),
        ("allocs/op", "allocations"),
        ("widgets/op", "widgets"),
    ] {
        let r = env.plumb(&["compare", &go, &go, "--metric", asked]);
        r.assert_code(0);
        assert!(
            r.stdout.contains(&format!("on {stored} per operation")),
            "{asked}: {}",
            r.stdout
        );
    }
    let r = env.plumb(&["compare", &go, &go, "--metric", "MB/s"]);
    r.assert_code(2);
    assert!(
        r.stderr.contains("--metric MB/s: not measured in")
            && r.stderr
                .contains("(it measures allocated-bytes, allocations, wall-time, widgets)"),
        "{}",
        r.stderr
    );
}

/// Issue 45, defect 14: `go test ./...` over several packages names each benchmark with
/// its package; compared with a run of one package (names without it) they pair by
/// name, as benchstat pairs them, instead of "no benchmark names in common".
#[test]
fn go_benchmarks_pair_across_package_counts() {
    let env = Env::new();
    let one = format!("{FIXTURES}/go/go-v.txt");
    let mut several = std::fs::read_to_string(&one).unwrap();
    several.push_str("pkg: example.com/other\nBenchmarkOther-2   \t 1000000\t        5.000 ns/op\nPASS\nok  \texample.com/other\t1.0s\n");
    let several = env.write("several.txt", &several);
    let r = env.plumb(&["compare", &one, several.to_str().unwrap()]);
    r.assert_code(0);
    assert!(
        r.stdout
            .contains("BenchmarkAlloc-2 → example.com/sums.BenchmarkAlloc-2"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("Comparing 4 benchmark(s)"),
        "{}",
        r.stdout
    );
}

/// Issue 45, defect 19: criterion's baselines are read by name (`DIR@NAME`: `base`, or
/// what `--save-baseline NAME` kept), and one benchmark's `new/` given directly, where
/// only `new/` under the directory was read; a baseline it lacks lists those it has.
/// Defect 17: criterion's throughput is kept (as a parameter: an amount per iteration).
#[test]
fn criterion_baselines_are_read_by_name() {
    let env = Env::new();
    let dir = format!("{FIXTURES}/criterion-baselines");
    let (before, after) = (format!("{dir}@before"), format!("{dir}@after"));
    let r = env.plumb(&["compare", &before, &after]);
    r.assert_code(0);
    assert!(
        r.stdout.contains("sums/bytes") && r.stdout.contains("sums/elements"),
        "{}",
        r.stdout
    );
    // The two baselines are two runs: their samples differ.
    let json = |at: &str, name: &str| -> serde_json::Value {
        let out = env.path(name);
        let r = env.plumb(&["show", at, "--export-json", out.to_str().unwrap()]);
        r.assert_code(0);
        serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
    };
    let (b, a) = (json(&before, "before.json"), json(&after, "after.json"));
    let samples = |d: &serde_json::Value| d["benchmarks"][0]["samples"].clone();
    assert_ne!(samples(&b), samples(&a));
    assert_eq!(
        b["benchmarks"][0]["parameters"]["throughput"],
        "1024 bytes per iteration"
    );
    assert_eq!(
        b["benchmarks"][1]["parameters"]["throughput"],
        "128 elements per iteration"
    );
    let one = json(&format!("{dir}/sums/bytes/new"), "one.json");
    assert_eq!(one["benchmarks"].as_array().unwrap().len(), 1);
    assert_eq!(one["benchmarks"][0]["name"], "sums/bytes");
    let r = env.plumb(&["show", &format!("{dir}@base")]);
    r.assert_code(2);
    assert!(
        r.stderr.contains(
            "criterion's output has no baseline \"base\": it has after, before, new (name one as DIR@NAME)"
        ),
        "{}",
        r.stderr
    );
}

/// Issue 45, defect 17: what an import leaves out of a harness's figures is said, where
/// Google Benchmark's rates and user counters were dropped without a word.
#[test]
fn figures_an_import_leaves_out_are_said() {
    let env = Env::new();
    let r = env.plumb(&["show", &format!("{FIXTURES}/gbench-counters.json")]);
    r.assert_code(0);
    assert!(
        r.stderr.contains(
            "left out: bytes_per_second, items_per_second (rates: the time per iteration is kept, the bytes or items per iteration are not in the file); user counters checks, elements (the file does not say whether each is a rate, a mean per iteration or a total)"
        ),
        "{}",
        r.stderr
    );
    let go = format!("{FIXTURES}/go/go-v.txt");
    let r = env.plumb(&["show", &go]);
    assert!(
        !r.stderr.contains("MB/s")
            || r.stderr
                .contains("MB/s is not kept: it is the bytes b.SetBytes gave over ns/op"),
        "{}",
        r.stderr
    );
    let r = env.plumb(&["show", &format!("{FIXTURES}/pytest/pytest-before.json")]);
    assert!(
        r.stderr
            .contains("(its ops, 1 / the mean, is recomputed, not read)"),
        "{}",
        r.stderr
    );
}

/// Issue 46, item 3: two real pytest-benchmark runs of `json.dumps` before and after
/// `sort_keys=True` (every quantile ~16 % slower; the first run's rounds preempted a few
/// times for 4 ms). Asked nothing, the verdict is "slower" by the median, the far-out
/// samples that leave the mean inconclusive said; asked the mean, it stays inconclusive
/// and the median's answer is still said (it was not: only decisive answers were listed).
#[test]
fn far_out_samples_do_not_hide_a_change_every_quantile_shows() {
    let env = Env::new();
    let before = format!("{FIXTURES}/pytest/pytest-dumps-before.json");
    let after = format!("{FIXTURES}/pytest/pytest-dumps-after.json");
    let r = env.plumb(&["compare", &before, &after]);
    r.assert_code(1);
    assert!(
        r.stdout
            .contains("median 11.27 µs → 13.12 µs   1.16× slower"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains(
            "question-matters: the mean is inconclusive where the median is not: 154 far-out samples of 5000"
        ) && r.stdout.contains("mean inconclusive (×0.603), median slower (×1.164)"),
        "{}",
        r.stdout
    );
    // Two separate runs, no history: the verdict says the drift between runs it assumes
    // (issue 46, item 2): ln(1.164/1.02)/z = √(own² + 2σ²) gives σ ≈ 2.8 %.
    assert!(
        r.stdout.contains("test_dumps.py::test_dumps is slower only while a run's mean drifts by less than ±2.8% between runs"),
        "{}",
        r.stdout
    );
    let r = env.plumb(&["compare", &before, &after, "--question", "mean"]);
    r.assert_code(0);
    assert!(r.stdout.contains("inconclusive  ×0.603"), "{}", r.stdout);
    assert!(
        r.stdout.contains("the answer depends on the question: mean inconclusive (×0.603), median slower (×1.164) — this verdict answers the mean"),
        "{}",
        r.stdout
    );
}
