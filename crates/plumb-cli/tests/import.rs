//! Other tools' exports read wherever a result is read: compare and show.
mod common;

use common::Env;

const FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../plumb-import/tests/fixtures"
);

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
    assert!(run.stdout.contains("slower        ×1.9"), "{}", run.stdout);
    let run = env.plumb(&["compare", &h, &h]);
    run.assert_code(0);
    assert!(run.stdout.contains("×1.000"), "{}", run.stdout);
    let run = env.plumb(&["show", &h]);
    run.assert_code(0);
    assert!(run.stdout.contains("a hyperfine export"), "{}", run.stdout);
    assert!(run.stdout.contains("sleep 0.02"), "{}", run.stdout);
    assert!(run.stdout.contains("slower"), "{}", run.stdout);
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
    // Five repetitions each, aggregates skipped; 4 Ki ints take about 4× 1 Ki.
    assert!(run.stdout.contains("BM_sum/4096"), "{}", run.stdout);
    assert!(run.stdout.contains("│ 5\n"), "{}", run.stdout);
    assert!(run.stdout.contains("slower"), "{}", run.stdout);
    let run = env.plumb(&["compare", &g, &g]);
    run.assert_code(0);
    assert!(run.stdout.contains("BM_sum/1024"), "{}", run.stdout);
}
