//! `plumb report` end to end: one self-contained HTML page from real results, and clear
//! refusals of bad input. (Opening the pages in headless Chromium is `report_browser.rs`.)

mod common;

use common::{ok_reply, scripted_server, Env, Reply};

/// What a self-contained page must not do: name anything to fetch. (URLs in the text,
/// a load test's target, are text; headless Chromium checks the network itself.)
fn assert_offline(html: &str) {
    for fetch in ["src=", "href=", "<link", "url(", "@import"] {
        assert!(!html.contains(fetch), "the page contains {fetch:?}");
    }
}

#[test]
fn a_command_run_and_a_load_result_make_one_offline_page_with_their_charts() {
    let env = Env::new();
    let (run_json, load_json) = (env.path("run.json"), env.path("load.json"));
    env.plumb(&[
        "run",
        "sleep 0.002",
        "sleep 0.004",
        "--runs",
        "12",
        "--warmup",
        "2",
        "--export-json",
        run_json.to_str().unwrap(),
    ])
    .assert_code(0);
    let addr = scripted_server("127.0.0.1:0", |_, _, _| Reply::Send(ok_reply()));
    env.plumb(&[
        "load",
        &format!("http://{addr}/"),
        "--rate",
        "200",
        "--duration",
        "1s",
        "--warmup",
        "0s",
        "--allow-late",
        "--export-json",
        load_json.to_str().unwrap(),
    ])
    .assert_code(0);
    let out = env.path("report.html");
    let run = env.plumb(&[
        "report",
        run_json.to_str().unwrap(),
        load_json.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    run.assert_code(0);
    assert!(run.stderr.contains("wrote"), "{}", run.stderr);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.starts_with("<!doctype html>"));
    assert_offline(&html);
    // Per command: its CDF and its run order (warm-up apart); the verdict of the pair.
    for name in ["sleep 0.002", "sleep 0.004"] {
        assert!(
            html.contains(&format!("<title>CDF of {name}</title>")),
            "{name}"
        );
        assert!(
            html.contains(&format!("<title>Run order of {name}</title>")),
            "{name}"
        );
    }
    assert_eq!(
        html.matches("class=\"warm\"").count(),
        4,
        "2 warm-up runs each"
    );
    assert!(html.contains("<h2>Verdicts</h2>") && html.contains("slower"));
    // The load result: its percentile spectrum with latency and service time.
    assert!(html.contains("<title>Percentile spectrum of GET http://"));
    assert!(html.contains("latency (from the due time)"));
    assert!(html.contains("service time (from the send)"));
}

#[test]
fn bad_input_is_refused_clearly_and_writes_nothing() {
    let env = Env::new();
    let junk = env.write("junk.json", "{ not json");
    let out = env.path("r.html");
    let run = env.plumb(&[
        "report",
        junk.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    run.assert_code(2);
    assert!(run.stderr.contains("junk.json"), "{}", run.stderr);
    assert!(!out.exists());
    let same = env.plumb(&[
        "report",
        junk.to_str().unwrap(),
        "-o",
        junk.to_str().unwrap(),
    ]);
    same.assert_code(2);
    assert!(
        same.stderr.contains("is one of the results"),
        "{}",
        same.stderr
    );
}
