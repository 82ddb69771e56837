//! `--question` end to end, on result files whose samples were crafted so the median and
//! p99 disagree: the candidate's body is 15 % faster and its tail (3 % of runs) twice as
//! slow. `plumb compare` answers the question asked, says which it answered, and notes
//! that another question gets another answer; p99.9 of 50 runs gets no verdict.
mod common;

use common::Env;
use plumb_model::{Benchmark, BenchmarkKind, Environment};

/// `n` runs: a body at `body` ns + 0..9 and every `1 / tail_share`-th run at `tail` + 0..9.
fn write(env: &Env, file: &str, n: usize, body: u64, tail: u64, tail_share: f64) {
    let mut doc = common::test_document(Environment::default());
    let every = (1.0 / tail_share).round() as usize;
    let times = (0..n).map(|i| {
        let jitter = (i * 7 % 10) as u64;
        if i % every == 0 {
            tail + jitter
        } else {
            body + jitter
        }
    });
    doc.benchmarks.push(Benchmark::of_wall_times(
        "parse",
        BenchmarkKind::Command,
        times,
    ));
    std::fs::write(env.path(file), doc.to_json()).unwrap();
}

#[test]
fn the_verdict_answers_the_question_asked() {
    let env = Env::new();
    write(&env, "a.json", 2000, 100_000, 150_000, 1.0 / 66.0);
    write(&env, "b.json", 2000, 85_000, 300_000, 1.0 / 33.0);
    let typical = env.plumb(&["compare", "a.json", "b.json", "--question", "typical"]);
    typical.assert_code(0);
    let flat = typical
        .stdout
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(flat.contains("on the typical case (the median)"), "{flat}");
    assert!(flat.contains("faster"), "{flat}");
    assert!(flat.contains("in the median: the whole ratio CI"), "{flat}");
    assert!(flat.contains("question-matters"), "{flat}");
    assert!(
        flat.contains("median faster") && flat.contains("p99 slower"),
        "{flat}"
    );

    let worst = env.plumb(&[
        "compare",
        "a.json",
        "b.json",
        "--question",
        "worst",
        "--export-json",
        "c.json",
    ]);
    worst.assert_code(1);
    assert!(
        worst.stdout.contains("bounded worst case (p99)"),
        "{}",
        worst.stdout
    );
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(env.path("c.json")).unwrap()).unwrap();
    let c = &saved["comparisons"][0];
    assert_eq!(c["question"], "worst=p99");
    assert_eq!(c["verdict"], "slower");
    assert_eq!(c["reason"]["kind"], "quantile");
}

#[test]
fn a_percentile_fifty_runs_cannot_bound_gets_no_verdict() {
    let env = Env::new();
    write(&env, "a.json", 50, 100_000, 150_000, 0.1);
    write(&env, "b.json", 50, 200_000, 250_000, 0.1);
    let run = env.plumb(&["compare", "a.json", "b.json", "--question", "worst=p99.9"]);
    run.assert_code(0);
    let flat = run.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("inconclusive"), "{flat}");
    assert!(
        flat.contains("this data cannot answer the question: bounding the p99.9 at 99.9% confidence takes at least 8290 samples a side (baseline n=50, candidate n=50)"),
        "{flat}"
    );
    let bad = env.plumb(&["compare", "a.json", "b.json", "--question", "p100"]);
    bad.assert_code(2);
    assert!(bad.stderr.contains("--question"), "{}", bad.stderr);
}
