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

/// A saved result's machine is its own: show points at `plumb show --environment`, not
/// at `plumb env` (this machine), and with --environment each machine finding is said
/// once (issue 24, defect 24).
#[test]
fn a_saved_result_s_machine_is_its_own_and_said_once() {
    let env = Env::new();
    let json = env.path("r.json");
    env.plumb(&[
        "run",
        "--runs",
        "12",
        "true",
        "--export-json",
        json.to_str().unwrap(),
    ])
    .assert_code(0);
    let doc = common::read_doc(&json);
    // A VM (CI's, this one) has at least the virtualised finding.
    if !doc
        .diagnostics
        .iter()
        .any(|d| d.severity >= plumb_model::Severity::Warning)
    {
        plumb_testkit::skip("this machine raised no machine finding to look for");
        return;
    }
    let run = env.plumb(&["show", json.to_str().unwrap(), "--environment"]);
    run.assert_code(0);
    // The footer of the machine's findings names where that machine's record is (a
    // finding's advice may still suggest plumb env for the next run, on this machine).
    assert!(!run.stdout.contains("plumb env shows"), "{}", run.stdout);
    assert!(
        run.stdout.contains("plumb show --environment"),
        "{}",
        run.stdout
    );
    for d in doc
        .diagnostics
        .iter()
        .filter(|d| d.severity >= plumb_model::Severity::Warning)
    {
        let code = format!("{}:", d.code());
        assert_eq!(
            run.stdout.matches(&code).count(),
            1,
            "{code}\n{}",
            run.stdout
        );
    }
    assert!(
        run.stdout.contains("The machine it was measured on"),
        "{}",
        run.stdout
    );
}
