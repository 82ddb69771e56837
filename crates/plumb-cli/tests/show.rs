//! `plumb show`: a saved result rendered again, and converted.
mod common;

use common::Env;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../plumb-model/tests/fixtures");

#[test]
fn shows_saved_results_and_converts_one() {
    let env = Env::new();
    let run2 = format!("{FIXTURES}/run2-v1.json");
    let load = format!("{FIXTURES}/load-v1.json");
    let run = env.plumb(&["show", &run2, &load]);
    run.assert_code(0);
    assert!(
        run.stdout
            .contains("run2-v1.json: plumb 0.1.0 result, 2026-11-23"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("sleep 0.0012"), "{}", run.stdout);
    assert!(run.stdout.contains("Verdicts"), "{}", run.stdout);
    // The migrated result keeps its CPU times; show gives them statistics.
    assert!(run.stdout.contains("User"), "{}", run.stdout);
    assert!(
        run.stdout.contains("open loop at 100.0 req/s"),
        "{}",
        run.stdout
    );
    let md = env.path("r.md");
    env.plumb(&["show", &run2, "--export-markdown", md.to_str().unwrap()])
        .assert_code(0);
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains("| sleep 0.0012 |"), "{text}");
    let run = env.plumb(&["show", &run2, &load, "--export-csv", "x.csv"]);
    run.assert_code(2);
    assert!(run.stderr.contains("converts one result"), "{}", run.stderr);
    let run = env.plumb(&["show", &run2, "--environment"]);
    assert!(run.stdout.contains("clock source"), "{}", run.stdout);
}
