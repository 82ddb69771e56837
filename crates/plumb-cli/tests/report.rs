//! `plumb report` end to end: one self-contained HTML page from real results, opened in
//! headless Chromium (no console errors, no network requests, every chart drawn, a
//! screenshot written), and clear refusals of bad input.

mod common;

use common::{ok_reply, scripted_server, Env, Reply};

/// What a self-contained page must not do: name anything to fetch. (URLs in the text,
/// a load test's target, are text; headless Chromium checks the network itself.)
fn assert_offline(html: &str) {
    for fetch in ["src=", "href=", "<link", "url(", "@import"] {
        assert!(!html.contains(fetch), "the page contains {fetch:?}");
    }
}

/// What the browser saw of a page: its charts (title, drawn with a size and shapes),
/// the resources it fetched, console lines, and the screenshot's size.
struct Seen {
    charts: Vec<(String, bool)>,
    fetched: Vec<String>,
    console: Vec<String>,
    screenshot_bytes: u64,
}

/// A page that loads `report` in a frame and, once it has loaded, writes what it finds
/// into its own DOM for --dump-dom: each chart's title and whether it has a box and
/// shapes, and every resource the report fetched (Resource Timing).
const HARNESS: &str = r#"<!doctype html><html><body><pre id="seen">pending</pre>
<iframe id="r" src="report.html" style="width:1100px;height:900px"></iframe>
<script>
document.getElementById('r').addEventListener('load', () => {
  const w = document.getElementById('r').contentWindow, d = w.document;
  const charts = [...d.querySelectorAll('svg')].map(s => {
    const b = s.getBoundingClientRect();
    const shapes = s.querySelectorAll('polyline,circle,line,rect').length;
    return [(s.querySelector('title') || {}).textContent || '', b.width > 0 && b.height > 0 && shapes > 0];
  });
  const fetched = w.performance.getEntriesByType('resource').map(e => e.name);
  document.getElementById('seen').textContent = JSON.stringify({charts, fetched});
});
</script></body></html>"#;

/// `report.html` in `dir` opened headless; None (said on stderr) without Chromium.
fn open_in_chromium(dir: &std::path::Path) -> Option<Seen> {
    let chromium = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            std::process::Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
    let Some(chromium) = chromium else {
        eprintln!("skipped: no chromium on PATH (.ci/run installs it)");
        return None;
    };
    std::fs::write(dir.join("harness.html"), HARNESS).unwrap();
    // Nothing may resolve: a page that tried to fetch would fail, and its resource
    // entries would still name what it tried.
    let common = [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--enable-logging=stderr",
        "--v=0",
    ];
    let dump = std::process::Command::new(chromium)
        .args(common)
        .args([
            "--allow-file-access-from-files",
            "--virtual-time-budget=5000",
            "--dump-dom",
        ])
        .arg(format!("file://{}", dir.join("harness.html").display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&dump.stdout);
    let json = dom
        .split("<pre id=\"seen\">")
        .nth(1)
        .and_then(|r| r.split("</pre>").next())
        .unwrap_or_else(|| panic!("the harness wrote nothing\n{dom}"));
    let json = json
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let v: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let console = String::from_utf8_lossy(&dump.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    let png = dir.join("report.png");
    std::process::Command::new(chromium)
        .args(common)
        .args(["--hide-scrollbars", "--window-size=1100,2400"])
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", dir.join("report.html").display()))
        .output()
        .unwrap();
    Some(Seen {
        charts: v["charts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c[0].as_str().unwrap().to_string(), c[1].as_bool().unwrap()))
            .collect(),
        fetched: v["fetched"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u.to_string())
            .collect(),
        console,
        screenshot_bytes: std::fs::metadata(&png).map_or(0, |m| m.len()),
    })
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
        "1s",
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
    let dir = env.path("page");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("report.html");
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
        8,
        "per command a distribution, a CDF and a run order; the ratios; one spectrum: {titles:?}"
    );
    assert!(
        seen.charts.iter().all(|(_, drawn)| *drawn),
        "{:?}",
        seen.charts
    );
    assert!(
        seen.fetched.is_empty(),
        "the page fetched {:?}",
        seen.fetched
    );
    assert!(seen.console.is_empty(), "console: {:?}", seen.console);
    assert!(
        seen.screenshot_bytes > 20_000,
        "screenshot of {} bytes",
        seen.screenshot_bytes
    );
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
