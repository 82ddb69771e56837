//! Every format plumb imports (issue 31), shown, compared and reported end to end from its
//! real export in crates/plumb-import/tests/fixtures: the tool is named, a benchmark of the
//! file is in each output, and the comparison of the file with itself is made.
mod common;

use common::{Env, FIXTURES};

/// (fixture, the tool as notes name it, a benchmark in it)
const FORMATS: [(&str, &str, &str); 11] = [
    ("hyperfine.json", "a hyperfine export", "sleep 0.02"),
    ("gbench.json", "a Google Benchmark export", "BM_sum/4096"),
    ("criterion-before", "a criterion export", "sum128"),
    (
        "go/go-before.txt",
        "a Go testing export",
        "BenchmarkSum/size=64-2",
    ),
    (
        "pytest/pytest-before.json",
        "a pytest-benchmark export",
        "test_sums.py::test_builtin_sum",
    ),
    (
        "jmh/jmh-avgt.json",
        "a JMH export",
        "bench.Sums.sum(size=1024)",
    ),
    (
        "bdn/memory-report-full.json",
        "a BenchmarkDotNet export",
        "AllocExactList",
    ),
    (
        "asv/results/vm/asv-before.json",
        "an asv export",
        "bench_sums.Sums.time_sum/size=1024",
    ),
    (
        "catch2/catch2-before.xml",
        "a Catch2 export",
        "sums/sum 1024",
    ),
    (
        "gungraun/before",
        "a gungraun export",
        "sums::sums::bench_sum.large",
    ),
    (
        "bmf/report_latency.json",
        "a Bencher Metric Format export",
        "tests::benchmark_c",
    ),
];

#[test]
fn each_format_is_shown_compared_and_reported() {
    let env = Env::new();
    for (fixture, tool, benchmark) in FORMATS {
        let path = format!("{FIXTURES}/{fixture}");
        let show = env.plumb(&["show", &path]);
        show.assert_code(0);
        assert!(
            show.stderr.contains(&format!("is {tool}")),
            "{fixture}: {}",
            show.stderr
        );
        assert!(
            show.stdout.contains(benchmark),
            "{fixture}: {}",
            show.stdout
        );
        let compare = env.plumb(&["compare", &path, &path]);
        assert!(
            compare.code == 0 || compare.code == 1,
            "{fixture}: exit {}: {}",
            compare.code,
            compare.stderr
        );
        assert!(
            compare.stdout.starts_with("Comparing "),
            "{fixture}: {}",
            compare.stdout
        );
        assert!(
            compare.stdout.contains(benchmark),
            "{fixture}: {}",
            compare.stdout
        );
        let report = env.plumb(&["report", &path, "-o", "-"]);
        report.assert_code(0);
        assert!(report.stdout.starts_with("<!doctype html>"), "{fixture}");
        let escaped = benchmark.replace('&', "&amp;").replace('<', "&lt;");
        assert!(
            report.stdout.contains(&escaped),
            "{fixture}: no {benchmark} in the report"
        );
    }
}
