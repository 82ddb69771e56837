//! Other tools' exports with one defect each (issue 31's bad input): truncated, a wrong
//! unit, zero iterations, a negative time, a duplicate name, a failed JMH fork, a Go
//! output interleaved with failures and logs, a directory of neither tool. Each is one
//! line naming the file and the place, and the file's other benchmarks are still read;
//! only a file that cannot be parsed at all (truncated JSON) is refused, saying where.
mod common;

use common::{Env, FIXTURES};

fn fixture(path: &str) -> String {
    std::fs::read_to_string(format!("{FIXTURES}/{path}")).unwrap()
}

/// One defect: the file's text, and what `plumb show` must say of it.
struct Case {
    file: &'static str,
    text: String,
    /// The one line said, after "<file>: ".
    said: &'static str,
    /// Benchmarks still shown, for a file that is read (None: refused, exit 2).
    kept: Option<&'static [&'static str]>,
}

fn cut(text: &str, fraction: f64) -> String {
    let mut end = (text.len() as f64 * fraction) as usize;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

fn cases() -> Vec<Case> {
    let gb = fixture("gbench.json");
    let jmh = fixture("jmh/jmh-avgt.json");
    let mut failed_fork: serde_json::Value = serde_json::from_str(&jmh).unwrap();
    let raw = &mut failed_fork[0]["primaryMetric"]["rawData"];
    raw[1] = serde_json::json!([]);
    vec![
        Case {
            file: "cut.json",
            text: cut(&fixture("pytest/pytest-before.json"), 0.5),
            said: "not valid JSON: EOF while parsing",
            kept: None,
        },
        Case {
            file: "cut.xml",
            text: cut(&fixture("catch2/catch2-before.xml"), 0.6),
            said: "line 15: not well-formed XML (syntax error: tag not closed: `>` not found before end of input); \"sums/sum 1024\" and the rest left out",
            kept: Some(&["sums/sum 64"]),
        },
        Case {
            file: "cut.jsonl",
            text: cut(&fixture("gungraun/after.jsonl"), 0.7),
            said: "line 2: not JSON (EOF while parsing",
            kept: Some(&["sums::sums::bench_sum.small"]),
        },
        Case {
            file: "unit.json",
            text: gb.replacen("\"time_unit\": \"ns\"", "\"time_unit\": \"fortnights\"", 1),
            said: "benchmarks[0] (BM_sum/1024): unknown time_unit \"fortnights\"",
            kept: Some(&["BM_sum/4096"]),
        },
        Case {
            file: "unit-jmh.json",
            text: jmh.replacen("\"ns/op\"", "\"furlongs/op\"", 1),
            said: "[0] (bench.Sums.sum(size=64)): unit \"furlongs/op\" is neither",
            kept: Some(&["bench.Sums.sum(size=1024)"]),
        },
        Case {
            file: "zero.json",
            text: gb.replacen("\"iterations\": ", "\"iterations\": 0, \"was\": ", 1),
            said: "benchmarks[0] (BM_sum/1024): \"iterations\" is not a positive count",
            kept: Some(&["BM_sum/4096"]),
        },
        Case {
            file: "negative.json",
            text: fixture("hyperfine.json").replacen("\"times\": [", "\"times\": [-0.5, ", 1),
            said: "results[0] (sleep 0.01): times[0] is -0.5 (seconds), below zero",
            kept: Some(&["sleep 0.02"]),
        },
        Case {
            file: "twice.json",
            text: {
                let mut v: serde_json::Value = serde_json::from_str(&jmh).unwrap();
                let first = v[0].clone();
                v.as_array_mut().unwrap().push(first);
                v.to_string()
            },
            said: "[2]: a second benchmark named \"bench.Sums.sum(size=64)\"; left out",
            kept: Some(&["bench.Sums.sum(size=64)", "bench.Sums.sum(size=1024)"]),
        },
        Case {
            file: "fork.json",
            text: failed_fork.to_string(),
            said: "[0] (bench.Sums.sum(size=64)): fork 2 measured nothing (it failed)",
            kept: Some(&["bench.Sums.sum(size=64)", "bench.Sums.sum(size=1024)"]),
        },
    ]
}

#[test]
fn each_defect_is_one_line_naming_the_place_and_the_rest_is_read() {
    let env = Env::new();
    for case in cases() {
        let path = env.write(case.file, &case.text);
        let run = env.plumb(&["show", path.to_str().unwrap()]);
        let line = format!("{}: {}", path.display(), case.said);
        let said: Vec<&str> = run.stderr.lines().filter(|l| l.contains(&line)).collect();
        assert_eq!(said.len(), 1, "{}: {line}\n{}", case.file, run.stderr);
        match case.kept {
            None => {
                run.assert_code(2);
            }
            Some(kept) => {
                run.assert_code(0);
                for name in kept {
                    let row = format!(" {name} ");
                    assert!(
                        run.stdout.contains(&row),
                        "{}: {name}\n{}",
                        case.file,
                        run.stdout
                    );
                }
            }
        }
    }
}

#[test]
fn a_directory_of_neither_tool_is_refused_in_one_line() {
    let env = Env::new();
    std::fs::create_dir_all(env.path("d/sub")).unwrap();
    std::fs::write(env.path("d/sub/readme.txt"), "x").unwrap();
    let run = env.plumb(&["show", env.path("d").to_str().unwrap()]);
    run.assert_code(2);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("d: neither a criterion output directory"),
        "{}",
        run.stderr
    );
}

/// A `target/` holding both criterion's output and gungraun's is refused, not read as
/// either; `--format` picks one.
#[test]
fn a_directory_of_both_tools_is_refused_unless_one_is_named() {
    let env = Env::new();
    let both = env.path("target");
    std::fs::create_dir_all(&both).unwrap();
    for (from, to) in [
        ("criterion-before", "criterion"),
        ("gungraun/before", "gungraun"),
    ] {
        let status = std::process::Command::new("cp")
            .args(["-r", &format!("{FIXTURES}/{from}")])
            .arg(both.join(to))
            .status()
            .unwrap();
        assert!(status.success());
    }
    let run = env.plumb(&["show", both.to_str().unwrap()]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("holds both criterion's output and gungraun's"),
        "{}",
        run.stderr
    );
    let run = env.plumb(&["show", "--format", "gungraun", both.to_str().unwrap()]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("sums::sums::bench_sum.small"),
        "{}",
        run.stdout
    );
}

/// Issue 45, defect 24: a file from which nothing was imported (another format forced on
/// it, an empty run) is an error naming the file and the format, exit 2 — not an empty
/// table and exit 0; and `compare` refuses such a side instead of calling it inconclusive.
#[test]
fn a_file_from_which_nothing_is_imported_is_refused() {
    let env = Env::new();
    let pytest = format!("{FIXTURES}/pytest/pytest-after.json");
    for (format, name) in [
        ("catch2", "Catch2"),
        ("gungraun", "gungraun"),
        ("bmf", "Bencher"),
    ] {
        let r = env.plumb(&["show", "--format", format, &pytest]);
        r.assert_code(2);
        assert!(
            r.stderr.contains("pytest-after.json: read as ")
                && r.stderr.contains(name)
                && r.stderr.contains("no benchmark with a figure in it"),
            "{format}: {}",
            r.stderr
        );
    }
    for (text, format) in [("[]", "jmh"), ("{\"benchmarks\": []}", "pytest-benchmark")] {
        let file = env.write("empty.json", text);
        let r = env.plumb(&["show", "--format", format, file.to_str().unwrap()]);
        r.assert_code(2);
        assert!(
            r.stderr.contains("no benchmark with a figure"),
            "{format}: {}",
            r.stderr
        );
    }
    let empty = env.write("none.json", "{\"benchmarks\": []}");
    let r = env.plumb(&[
        "compare",
        &pytest,
        empty.to_str().unwrap(),
        "--format",
        "pytest-benchmark",
    ]);
    r.assert_code(2);
    assert!(
        r.stderr.contains("none.json: read as pytest-benchmark"),
        "{}",
        r.stderr
    );
}

/// Issue 45, defects 25 and 27: a value no benchmark took (1e20 s) is refused as a time,
/// not clamped to 2^64 ns ("18450000000 s"); an empty list of times is said, not a row
/// of N 0; a speedup of 1e308 is printed with its exponent, not as 309 digits.
#[test]
fn values_that_are_not_times_are_refused_and_huge_numbers_keep_their_exponent() {
    let env = Env::new();
    let mut v: serde_json::Value = serde_json::from_str(&fixture("hyperfine.json")).unwrap();
    v["results"][0]["times"][0] = serde_json::json!(1e20);
    v["results"][1]["times"] = serde_json::json!([]);
    let file = env.write("huge.json", &v.to_string());
    let r = env.plumb(&["show", file.to_str().unwrap()]);
    assert!(
        r.stderr
            .contains("times[0]: 1.000e20 s is not a time a benchmark took"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("\"times\" is empty: no run to read"),
        "{}",
        r.stderr
    );
    assert!(!r.stdout.contains("18450000000"), "{}", r.stdout);
    env.write("p.folded", "prog;main;heavy 700\nprog;main;rest 300\n");
    let r = env.plumb(&[
        "amdahl",
        "p.folded",
        "--function",
        "heavy",
        "--micro",
        "1e308",
    ]);
    r.assert_code(0);
    assert!(
        r.stdout.contains("made 1.000e308× faster (as given)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.lines().all(|l| l.len() < 300), "{}", r.stdout);
}

/// Issue 45, defects 26 and 27: what is wrong is said in the format's own words — Go text
/// whose result lines cannot be read (0 iterations, NaN, a negative), Go output with no
/// result line, a cut-short `go test -json` (its events before the cut read), NaN as
/// Python writes it, an empty file, a BMF interval whose lower bound is above its upper —
/// where they were "not valid JSON: expected value at line 1", "trailing characters at
/// line 2", "EOF while parsing" or accepted silently.
#[test]
fn broken_files_are_said_in_their_formats_own_words() {
    let env = Env::new();
    let head = "goos: linux\ngoarch: amd64\npkg: example.com/sums\n";
    let events = fixture("go/go-test2json.json");
    let cut_at = events.len() * 2 / 3;
    let cut_at = (0..cut_at)
        .rev()
        .find(|&i| events.is_char_boundary(i) && &events[i - 1..i] != "\n")
        .unwrap();
    let cases: [(&str, String, &str); 8] = [
        ("zero.txt", format!("{head}BenchmarkA-2   0   12 ns/op\nPASS\n"), "Go benchmark output, no result line of it read: line 4: \"0\" is not a positive iteration count"),
        ("nan.txt", format!("{head}BenchmarkA-2   100   NaN ns/op\nPASS\n"), "Go benchmark output, no result line of it read: line 4: \"NaN\" ns/op is not a value"),
        ("negative.txt", format!("{head}BenchmarkA-2   100   -5 ns/op\n"), "line 4: \"-5\" ns/op is not a value"),
        ("none.txt", format!("{head}PASS\nok  \texample.com/sums\t0.1s\n"), "Go test output without a benchmark result line (was -bench given?)"),
        ("cut.json", events[..cut_at].to_string(), "the last test2json event is cut short (the file ends inside it: truncated, or go test was stopped); the events before it are read"),
        ("empty.json", "\n".to_string(), "the file is empty: nothing was written to it"),
        ("bmf-nan.json", r#"{"b": {"latency": {"value": NaN}}}"#.to_string(), "\"b\": latency: value \"NaN\" is not a measurement"),
        ("bmf-bounds.json", r#"{"b": {"latency": {"value": 5, "lower_value": 6, "upper_value": 4}}}"#.to_string(), "latency: lower_value 6 is above upper_value 4: no interval"),
    ];
    for (file, text, said) in cases {
        let path = env.write(file, &text);
        let r = env.plumb(&["show", path.to_str().unwrap()]);
        assert!(r.stderr.contains(said), "{file}: {}", r.stderr);
        assert!(!r.stderr.contains("not valid JSON"), "{file}: {}", r.stderr);
        if file == "cut.json" {
            r.assert_code(0);
            assert!(r.stdout.contains("BenchmarkSum/size=64-2"), "{}", r.stdout);
        } else {
            r.assert_code(2);
        }
    }
    // NaN in a pytest-benchmark round, as Python's json writes it: that benchmark fails
    // saying so, the others are read.
    let mut v: serde_json::Value =
        serde_json::from_str(&fixture("pytest/pytest-before.json")).unwrap();
    v["benchmarks"][0]["stats"]["data"][3] = serde_json::json!("NAN-HERE");
    let text = v.to_string().replace("\"NAN-HERE\"", "NaN");
    let path = env.write("pytest-nan.json", &text);
    let r = env.plumb(&["show", path.to_str().unwrap()]);
    r.assert_code(0);
    assert!(
        r.stderr
            .contains("(test_sums.py::test_sum[64]): data[3] is \"NaN\", not a time in seconds"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("test_sum[1024]"), "{}", r.stdout);
}

/// Issue 45, defect 27: a malformed asv entry is said as the file's fault, not blamed on
/// the benchmark ("raised or timed out"); a plumb result whose recorded statistics its own
/// samples contradict is shown with the samples' statistics, and said.
#[test]
fn a_malformed_entry_and_contradicted_statistics_are_said_as_such() {
    let env = Env::new();
    let mut asv: serde_json::Value =
        serde_json::from_str(&fixture("asv/results/vm/asv-before.json")).unwrap();
    asv["results"]["bench_sums.Sums.time_only_small"] = serde_json::json!("oops");
    asv["results"]["bench_sums.Sums.time_sum"][0] = serde_json::json!(5);
    let file = env.write("asv-bad.json", &asv.to_string());
    let r = env.plumb(&["show", file.to_str().unwrap()]);
    r.assert_code(0);
    for said in [
        "results[\"bench_sums.Sums.time_only_small\"]: \"oops\" is not a list of asv's result columns (a malformed file, not the benchmark's failure); left out",
        "results[\"bench_sums.Sums.time_sum\"]: its result 5 is not a list (a malformed file, not the benchmark's failure); bench_sums.Sums.time_sum/param1=64 left out",
    ] {
        assert!(r.stderr.contains(said), "{said}: {}", r.stderr);
    }
    assert!(
        !r.stdout.contains("raised or timed out") || r.stdout.contains("time_fails"),
        "{}",
        r.stdout
    );
    // A plumb result, its recorded mean edited to 5 ns.
    let saved = env.path("saved.json");
    let run2 = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../plumb-model/tests/fixtures/run-v2.json"
    );
    env.plumb(&["show", run2, "--export-json", saved.to_str().unwrap()])
        .assert_code(0);
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    let name = doc["benchmarks"][0]["name"].as_str().unwrap().to_string();
    let mean = doc["benchmarks"][0]["stats"]["wall-time"]["summary"]["mean"].clone();
    doc["benchmarks"][0]["stats"]["wall-time"]["summary"]["mean"] = serde_json::json!(5.0);
    let edited = env.write("edited.json", &doc.to_string());
    let out = env.path("again.json");
    let r = env.plumb(&[
        "show",
        edited.to_str().unwrap(),
        "--export-json",
        out.to_str().unwrap(),
    ]);
    r.assert_code(0);
    assert!(
        r.stderr.contains(&format!(
            "edited.json: {name}: its recorded wall-time (mean 5.000 ns,"
        )) && r
            .stderr
            .contains("shown are the statistics of its samples, and its verdicts judged again"),
        "{}",
        r.stderr
    );
    let again: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        again["benchmarks"][0]["stats"]["wall-time"]["summary"]["mean"],
        mean
    );
    // The unedited result says nothing of the kind.
    let r = env.plumb(&["show", saved.to_str().unwrap()]);
    assert!(!r.stderr.contains("its recorded"), "{}", r.stderr);
}
