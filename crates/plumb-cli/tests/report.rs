//! `plumb report` end to end: one self-contained HTML page from real results, opened in
//! headless Chromium (no console errors, no network requests, every chart drawn, a
//! screenshot written), and clear refusals of bad input.

mod common;

use common::browser::open_in_chromium;
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
        "--report",
        env.path("run.html").to_str().unwrap(),
    ])
    .assert_code(0);
    // --report on the run writes the same kind of page as plumb report.
    let direct = std::fs::read_to_string(env.path("run.html")).unwrap();
    assert!(direct.starts_with("<!doctype html>"));
    assert!(direct.contains("<title>CDF of sleep 0.004</title>"));
    let addr = scripted_server("127.0.0.1:0", |_, _, _| Reply::Send(ok_reply()));
    env.plumb(&[
        "load",
        &format!("http://{addr}/"),
        "--rate",
        "200",
        "--duration",
        "2s",
        "--warmup",
        "0s",
        "--allow-late",
        "--export-json",
        load_json.to_str().unwrap(),
        "--report",
        env.path("load.html").to_str().unwrap(),
    ])
    .assert_code(0);
    let direct = std::fs::read_to_string(env.path("load.html")).unwrap();
    assert!(direct.contains("<title>Percentile spectrum of GET http://"));
    assert!(direct.contains("<title>Timeline of GET http://"));
    let dir = env.path("page");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("report.html");
    let run = env.plumb(&[
        "report",
        run_json.to_str().unwrap(),
        load_json.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--svg-dir",
        env.path("svgs").to_str().unwrap(),
    ]);
    run.assert_code(0);
    assert!(run.stderr.contains("wrote"), "{}", run.stderr);
    // Each chart also as a file of its own, carrying its styles.
    let svgs: Vec<_> = std::fs::read_dir(env.path("svgs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(svgs.len(), 9, "{svgs:?}");
    let cdf = std::fs::read_to_string(env.path("svgs/cdf-of-sleep-0-002.svg")).unwrap();
    assert!(cdf.starts_with("<?xml") && cdf.contains("<style>"));
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.starts_with("<!doctype html>"));
    assert_offline(&html);
    // Per command: its CDF and its run order (warm-up apart); the verdict of the pair.
    for name in ["sleep 0.002", "sleep 0.004"] {
        assert!(
            html.contains(&format!("<title>Distribution of {name}</title>")),
            "{name}"
        );
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
    assert!(html.contains("<title>Ratios to the baseline</title>"));
    // The load result: its percentile spectrum with latency and service time.
    assert!(html.contains("<title>Percentile spectrum of GET http://"));
    assert!(html.contains("latency (from the due time)"));
    assert!(html.contains("service time (from the send)"));

    let Some(seen) = open_in_chromium(&dir) else {
        return;
    };
    let titles: Vec<&str> = seen.charts.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(
        seen.charts.len(),
        9,
        "per command a distribution, a CDF and a run order; the ratios; the load's spectrum and timeline: {titles:?}"
    );
    seen.assert_clean();
}

#[test]
fn a_newer_format_is_refused_and_a_result_without_samples_says_so() {
    let env = Env::new();
    let json = env.path("r.json");
    env.plumb(&[
        "run",
        "true",
        "--runs",
        "3",
        "--export-json",
        json.to_str().unwrap(),
    ])
    .assert_code(0);
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let mut newer = doc.clone();
    newer["format_version"] = 99.into();
    let newer_path = env.write("newer.json", &newer.to_string());
    let out = env.path("n.html");
    let run = env.plumb(&[
        "report",
        newer_path.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("newer.json") && run.stderr.contains("99"),
        "{}",
        run.stderr
    );
    assert!(!out.exists());
    // A benchmark that measured nothing: the page says so instead of drawing empty axes.
    let b = &mut doc["benchmarks"][0];
    b["samples"] = serde_json::json!({"count": 0, "values": {"wall-time": []}, "exits": []});
    b.as_object_mut().unwrap().remove("stats");
    let empty = env.write("empty.json", &doc.to_string());
    let out = env.path("e.html");
    env.plumb(&[
        "report",
        empty.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ])
    .assert_code(0);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(
        html.contains("No samples were measured: nothing to draw."),
        "{html}"
    );
    assert!(!html.contains("<title>CDF of"));
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
    // An output that cannot be written: said before anything runs.
    let run = env.plumb(&[
        "run",
        "true",
        "--runs",
        "3",
        "--report",
        "/nonexistent-dir/r.html",
    ]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("/nonexistent-dir/r.html"),
        "{}",
        run.stderr
    );
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

/// An in-process (plumb-bench) sweep with `--report`: its page has the sweep drawn
/// against the caches, and opens clean in the browser.
#[test]
fn an_in_process_sweep_reports_its_sweep() {
    use plumb_bench::{black_box, Args, Harness};
    let env = Env::new();
    let dir = env.path("inproc");
    std::fs::create_dir_all(&dir).unwrap();
    let args = Args {
        bench: true,
        measure_time: plumb_model::quantity::Duration::from_millis(30),
        sample_count: 10,
        warmup_cap: plumb_model::quantity::Duration::from_millis(100),
        // In this test binary: it cannot be re-executed as a harness.
        launches: 1,
        quiet: true,
        export_json: Some(dir.join("r.json")),
        report: Some(dir.join("report.html")),
        ..Args::default()
    };
    let mut h = Harness::with_args(args);
    h.group("sum").bench_params(
        "sum",
        "size",
        [4u64 << 10, 64 << 10, 1 << 20],
        false,
        |b, &bytes| {
            let v = vec![1u64; bytes as usize / 8];
            b.working_set_bytes(bytes);
            b.iter(|| black_box(&v).iter().sum::<u64>())
        },
    );
    h.run_to_document().unwrap().unwrap();
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("<title>Sweep "), "no sweep chart");
    assert!(html.contains("<title>CDF of sum/sum/size=4096</title>"));
    let Some(seen) = open_in_chromium(&dir) else {
        return;
    };
    assert!(seen.charts.iter().any(|(t, _)| t.starts_with("Sweep ")));
    seen.assert_clean();
}

/// Ctrl-C during a run: the page is written with what was measured, and says so.
#[test]
fn an_interrupted_run_is_reported_as_such() {
    let env = Env::new();
    let page = env.path("int.html");
    let run = env.plumb_signalled(
        &[
            "run",
            "sleep 0.05",
            "--runs",
            "200",
            "--warmup",
            "0",
            "--report",
            page.to_str().unwrap(),
        ],
        "-INT",
        std::time::Duration::from_millis(1500),
    );
    run.assert_code(130);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("<p class=\"banner\">Interrupted by Ctrl-C: what follows is what was measured before it.</p>"),
        "{html}"
    );
    assert!(html.contains("<title>CDF of sleep 0.05</title>"));
}

/// Two results of the same benchmarks are compared on the page (a forest of their ratios
/// and each verdict), and a comparison saved by plumb compare is a report input of its
/// own (issue 24, defect 23).
#[test]
fn two_results_and_a_saved_comparison_are_drawn_compared() {
    let env = Env::new();
    let (a, b) = (env.path("a.json"), env.path("b.json"));
    for json in [&a, &b] {
        env.plumb(&[
            "run",
            "sleep 0.002",
            "sleep 0.003",
            "--runs",
            "12",
            "--warmup",
            "1",
            "--export-json",
            json.to_str().unwrap(),
        ])
        .assert_code(0);
    }
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let page = env.path("both.html");
    env.plumb(&["report", a, b, "-o", page.to_str().unwrap()])
        .assert_code(0);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains(&format!("<h2>{a} → {b}</h2>")),
        "no comparison section"
    );
    // One forest per result (its own baseline) and one for the two results.
    assert_eq!(
        html.matches("<title>Ratios to the baseline</title>")
            .count(),
        3
    );

    let saved = env.path("c.json");
    env.plumb(&["compare", a, b, "--export-json", saved.to_str().unwrap()]);
    let dir = env.path("cmp");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("report.html");
    env.plumb(&[
        "report",
        saved.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ])
    .assert_code(0);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains(&format!("<title>plumb report: {a} → {b}</title>")));
    assert!(html.contains("<title>Ratios to the baseline</title>"));
    assert!(html.contains("sleep 0.002") && html.contains("sleep 0.003"));
    assert_offline(&html);
    if let Some(seen) = open_in_chromium(&dir) {
        seen.assert_clean();
    }
}

/// A repeated load test's page (issue 24, defect 22): the runs chart counts its runs in
/// whole numbers (its ticks read 0 1 2 2 2 3 4) on a latency axis without "0.000 ns", the
/// machine is on the page, and nothing overlaps or is cut off in a browser.
#[test]
fn a_repeated_load_page_reads_cleanly() {
    let env = Env::new();
    let addr = scripted_server("127.0.0.1:0", |_, _, _| Reply::Send(ok_reply()));
    let dir = env.path("page");
    std::fs::create_dir_all(&dir).unwrap();
    env.plumb(&[
        "load",
        &format!("http://{addr}/"),
        "--rate",
        "200",
        "--duration",
        "1s",
        "--warmup",
        "0s",
        "--repeat",
        "4",
        "--allow-late",
        "--report",
        dir.join("report.html").to_str().unwrap(),
    ])
    .assert_code(0);
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let runs = html
        .split("<svg")
        .find(|svg| svg.contains("<title>Runs of "))
        .expect("a runs chart");
    let ticks: Vec<&str> = runs
        .split("<text class=\"tick\"")
        .skip(1)
        .filter_map(|t| t.split('>').nth(1)?.split('<').next())
        .collect();
    let mut whole: Vec<&str> = ticks
        .iter()
        .copied()
        .filter(|t| t.parse::<u32>().is_ok())
        .collect();
    let n = whole.len();
    whole.dedup();
    assert_eq!(whole.len(), n, "a run number twice: {ticks:?}");
    assert!(!runs.contains(">0.000 ns<"), "{ticks:?}");
    assert!(html.contains("<h2>The machine and the run</h2>"));
    if let Some(seen) = open_in_chromium(&dir) {
        seen.assert_clean();
    }
}
