//! `plumb load --repeat N` and two targets loaded in turn: each run kept, and comparisons
//! judged by the spread of the runs' percentiles, never by one run per side. The servers
//! are scripted here: one answers after 2 ms, the other after 6 ms.

mod common;

use common::{ok_reply, read_doc, scripted_server, Env, Reply};
use std::time::Duration;

fn server_answering_after(ms: u64) -> String {
    let addr = scripted_server("127.0.0.1:0", move |_, _, _| {
        Reply::After(Duration::from_millis(ms), ok_reply())
    });
    format!("http://{addr}/")
}

/// `plumb load URL… --rate 200 --duration 1s --warmup 0s --allow-late --confidence 99%
/// --export-json FILE extra…`
fn load(env: &Env, json: &str, urls: &[&str], extra: &[&str]) -> common::Run {
    let json = env.path(json);
    let mut args = vec!["load"];
    args.extend(urls);
    args.extend([
        "--rate",
        "200",
        "--duration",
        "1s",
        "--warmup",
        "0s",
        "--allow-late",
        "--confidence",
        "99%",
        "--export-json",
        json.to_str().unwrap(),
    ]);
    args.extend(extra);
    env.plumb(&args)
}

#[test]
fn two_targets_in_turn_are_compared_run_by_run() {
    let env = Env::new();
    let (fast, slow) = (server_answering_after(2), server_answering_after(6));
    let page = env.path("ab.html");
    let run = load(
        &env,
        "ab.json",
        &[&fast, &slow],
        &["--repeat", "3", "--report", page.to_str().unwrap()],
    );
    // The second target is three times slower: exit 1, like plumb compare.
    run.assert_code(1);
    let doc = read_doc(&env.path("ab.json"));
    assert_eq!(doc.benchmarks.len(), 2);
    for b in &doc.benchmarks {
        let l = b.load().unwrap();
        assert_eq!(l.runs.len(), 3, "{}", b.name);
        assert_eq!(l.ok, l.runs.iter().map(|r| r.ok).sum::<u64>());
        assert_eq!(l.latency.count, l.ok);
        // Rates over the runs' summed windows: 200/s, not diluted by the pauses.
        assert!(
            (l.achieved_rate - 200.0).abs() < 10.0,
            "{}",
            l.achieved_rate
        );
    }
    let p50 = |i: usize| {
        doc.benchmarks[i].load().unwrap().runs[0]
            .latency
            .percentile("p50")
            .unwrap()
            .as_micros_f64()
    };
    assert!(
        p50(0) >= 2000.0 && p50(1) >= 6000.0,
        "{} {}",
        p50(0),
        p50(1)
    );
    let out = &run.stdout;
    assert!(out.contains("3 runs, in the order they ran"), "{out}");
    let p50_line = out
        .lines()
        .find(|l| l.trim_start().starts_with("p50") && l.contains("→"))
        .unwrap_or_else(|| panic!("no comparison\n{out}"));
    assert!(
        p50_line.contains("slower") && p50_line.contains("over 3 and 3 runs"),
        "{out}"
    );
    assert!(out.contains("judged by the runs' own percentiles"), "{out}");
    // The page draws each target's runs.
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<title>Runs of GET http://").count(), 2);
}

#[test]
fn one_run_per_side_compares_as_inconclusive_and_runs_judge() {
    let env = Env::new();
    let (fast, slow) = (server_answering_after(2), server_answering_after(6));
    load(&env, "fast1.json", &[&fast], &[]).assert_code(0);
    load(&env, "slow1.json", &[&slow], &[]).assert_code(0);
    load(&env, "fast3.json", &[&fast], &["--repeat", "3"]).assert_code(0);
    let pair = format!("GET {fast}=GET {slow}");
    let compare = |base: &str, new: &str| {
        env.plumb(&[
            "compare",
            env.path(base).to_str().unwrap(),
            env.path(new).to_str().unwrap(),
            "--pair",
            &pair,
            "--confidence",
            "99%",
        ])
    };
    // Three times slower, and still no verdict from one run per side: exit 0.
    let single = compare("fast1.json", "slow1.json");
    single.assert_code(0);
    assert!(!single.stdout.contains("slower "), "{}", single.stdout);
    assert!(
        single
            .stdout
            .contains("one run per side cannot tell a change from run-to-run variation"),
        "{}",
        single.stdout
    );
    // Three runs of the base: their spread stands for the single new run's.
    let judged = compare("fast3.json", "slow1.json");
    judged.assert_code(1);
    assert!(
        judged.stdout.contains("over 3 and 1 runs"),
        "{}",
        judged.stdout
    );
}

#[test]
fn a_target_that_goes_away_keeps_the_runs_measured_before() {
    let env = Env::new();
    let fast = server_answering_after(2);
    let gone = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/", l.local_addr().unwrap())
    };
    let run = load(&env, "gone.json", &[&fast, &gone], &[]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("run 2 of 2") && run.stderr.contains(&gone),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout
            .contains("the figures below are from the runs before it"),
        "{}",
        run.stdout
    );
    let doc = read_doc(&env.path("gone.json"));
    assert_eq!(doc.benchmarks.len(), 1);
    assert!(doc.benchmarks[0].load().unwrap().ok > 150);
    assert!(matches!(doc.status, plumb_model::RunStatus::Failed { .. }));
}

#[test]
fn options_of_one_run_are_refused_with_several() {
    let env = Env::new();
    let url = "http://127.0.0.1:9/";
    let same = load(&env, "x.json", &[url, url], &[]);
    same.assert_code(2);
    assert!(
        same.stderr.contains("the two targets are the same URL"),
        "{}",
        same.stderr
    );
    let hlog = env.path("x.hlog");
    let run = load(
        &env,
        "x.json",
        &[url],
        &["--repeat", "2", "--hlog", hlog.to_str().unwrap()],
    );
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("--hlog describes one run; with --repeat there are several"),
        "{}",
        run.stderr
    );
}
