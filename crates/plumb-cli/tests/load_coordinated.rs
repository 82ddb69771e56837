//! `plumb coordinate` and `plumb load --coordinator` end to end over loopback: agents
//! started together and merged as `plumb merge` would, and each refusal and failure the
//! issue names (a mismatched agent, a stranger, an unreachable coordinator, a late join,
//! an agent killed mid-test), with what was sent to the target counted.
mod common;

use common::{ok_reply, read_doc, scripted_server, Env, Reply, Run};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

const TOKEN: &str = "0123456789abcdef0123456789abcdef";

/// A server answering 200 to everything, and how many requests it has had.
fn counted_server() -> (String, Arc<AtomicU64>) {
    let count = Arc::new(AtomicU64::new(0));
    let c = count.clone();
    let addr = scripted_server("127.0.0.1:0", move |_, _, _| {
        c.fetch_add(1, Ordering::SeqCst);
        Reply::Send(ok_reply())
    });
    (format!("http://{addr}/"), count)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn spawn(env: &Env, args: &[String]) -> Child {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    env.command(&args)
        .env("PLUMB_TOKEN", TOKEN)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("plumb starts")
}

fn coordinator(env: &Env, port: u16, agents: u32, extra: &[&str]) -> Child {
    let mut args: Vec<String> = [
        "coordinate",
        "--agents",
        &agents.to_string(),
        "--listen",
        &format!("127.0.0.1:{port}"),
        "-o",
        env.path("all.json").to_str().unwrap(),
        "--start-in",
        "1s",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    spawn(env, &args)
}

/// `plumb load`'s arguments for agent `i` of `n`, reporting to the coordinator on `port`.
fn agent_args(url: &str, port: u16, n: u32, i: u32, rate: &str, duration: &str) -> Vec<String> {
    [
        "load",
        url,
        "--rate",
        rate,
        "--duration",
        duration,
        "--warmup",
        "500ms",
        "--agents",
        &n.to_string(),
        "--agent-index",
        &i.to_string(),
        "--coordinator",
        &format!("127.0.0.1:{port}"),
        "--coordinator-wait",
        "10s",
        // Not a test of the lateness gate (load_gates.rs is): on a busy machine the
        // generator can fall behind by a few ms, which would fail the run.
        "--allow-late",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn agent(env: &Env, url: &str, port: u16, n: u32, i: u32, rate: &str, duration: &str) -> Child {
    spawn(env, &agent_args(url, port, n, i, rate, duration))
}

/// `kill SIGNAL` to `child`.
fn signal(child: &Child, signal: &str) {
    let sent = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

fn ended(child: Child) -> Run {
    Run::of(child.wait_with_output().expect("plumb ends"))
}

#[test]
fn agents_start_together_and_merge_into_what_plumb_merge_makes() {
    let env = Env::new();
    let (url, sent) = counted_server();
    let port = free_port();
    let co = coordinator(&env, port, 2, &[]);
    let agents: Vec<Child> = (0..2)
        .map(|i| agent(&env, &url, port, 2, i, "400", "2s"))
        .collect();
    for a in agents {
        let r = ended(a);
        r.assert_code(0);
        assert!(
            r.stderr.contains("joined the coordinator at"),
            "{}",
            r.stderr
        );
    }
    let r = ended(co);
    r.assert_code(0);
    assert!(
        r.stderr.contains("all 2 agents ready: the test starts at"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("Coordinated 2 agents"), "{}", r.stdout);
    let doc = read_doc(&env.path("all.json"));
    let plumb_model::ProducerSettings::Merged(m) = &doc.settings.producer else {
        panic!("a merged result")
    };
    let c = m.coordination.as_ref().expect("the coordination recorded");
    assert_eq!((c.count, c.agents.len()), (2, 2));
    for (i, a) in c.agents.iter().enumerate() {
        assert_eq!(a.index, i as u32);
        assert!(a.missing.is_none());
        // One machine, one clock: the offset is within its uncertainty (and a loopback
        // round trip is well under a millisecond).
        let offset =
            a.start_on_own_clock.as_unix_nanos() as i128 - c.start_at.as_unix_nanos() as i128;
        let bound = a.round_trip.as_nanos().max(100_000) as i128;
        assert!(offset.abs() <= bound, "{a:?}");
    }
    let l = doc.benchmarks[0].load().unwrap();
    // 400/s over 2 s measured, 0.5 s warm-up before: 1,000 requests sent in all. The
    // shares' windows are moved onto the coordinator's clock by offsets measured to some
    // microseconds, so their union is 2 s give or take those.
    let target = l.target_rate.unwrap();
    assert!((target - 400.0).abs() < 400.0 * 1e-4, "{target}");
    assert!((795..=801).contains(&l.due), "{} due", l.due);
    assert_eq!(sent.load(Ordering::SeqCst), 1000);
    // Each agent's result is kept, and merging them again gives the same histograms.
    let parts = [env.path("all.agent-0.json"), env.path("all.agent-1.json")];
    for (i, p) in parts.iter().enumerate() {
        let d = read_doc(p);
        let plumb_model::ProducerSettings::Load(s) = &d.settings.producer else {
            panic!()
        };
        assert_eq!(s.agents.unwrap().index, i as u32);
        assert!(s.coordinated.is_some(), "the agent's clock recorded");
        assert_eq!(
            s.start_at,
            Some(c.start_at),
            "the start on the coordinator's clock"
        );
    }
    let again = env.path("again.json");
    env.plumb(&[
        "merge",
        parts[0].to_str().unwrap(),
        parts[1].to_str().unwrap(),
        "-o",
        again.to_str().unwrap(),
    ])
    .assert_code(0);
    let again = read_doc(&again);
    let (a, b) = (again.benchmarks[0].load().unwrap(), l);
    assert_eq!(a.latency.hdr_base64, b.latency.hdr_base64);
    assert_eq!((a.ok, a.due), (b.ok, b.due));
}

#[test]
fn a_mismatched_agent_and_a_stranger_are_refused_and_nothing_is_sent() {
    let env = Env::new();
    let (url, sent) = counted_server();
    let port = free_port();
    let co = coordinator(&env, port, 2, &["--join-within", "5s"]);
    let first = agent(&env, &url, port, 2, 0, "400", "2s");
    std::thread::sleep(Duration::from_millis(500));
    let r = ended(agent(&env, &url, port, 2, 1, "200", "2s"));
    r.assert_code(2);
    assert!(
        r.stderr
            .contains("--rate 200/s where the others have 400/s")
            && r.stderr.contains("nothing was sent to the target"),
        "{}",
        r.stderr
    );
    let r = ended(agent(&env, &url, port, 2, 0, "400", "2s"));
    assert!(
        r.stderr.contains("index 0 is already agent-0's"),
        "{}",
        r.stderr
    );
    let args = agent_args(&url, port, 2, 1, "400", "2s");
    let mut stranger = env.command(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let out = stranger
        .env("PLUMB_TOKEN", "not-the-token-at-all-0123")
        .output()
        .unwrap();
    let r = Run::of(out);
    r.assert_code(2);
    assert!(
        r.stderr
            .contains("refused this agent: the token does not match"),
        "{}",
        r.stderr
    );
    // The coordinator gives up waiting for a second agent, and tells the first.
    let r = ended(co);
    r.assert_code(2);
    assert!(
        r.stderr
            .contains("gave up waiting with 1 of 2 agents ready (agent-0)"),
        "{}",
        r.stderr
    );
    for why in [
        "--rate 200/s where the others have 400/s",
        "does not hold the token",
        "index 0 is already",
    ] {
        assert!(r.stderr.contains(why), "{why:?} not in {}", r.stderr);
    }
    let r = ended(first);
    r.assert_code(2);
    assert!(
        r.stderr.contains("not every agent joined in time"),
        "{}",
        r.stderr
    );
    assert_eq!(
        sent.load(Ordering::SeqCst),
        0,
        "no request reached the target"
    );
}

#[test]
fn an_unreachable_coordinator_or_a_missing_token_sends_nothing() {
    let env = Env::new();
    let (url, sent) = counted_server();
    let port = free_port();
    let args = [
        "load",
        &url,
        "--rate",
        "400",
        "--duration",
        "1s",
        "--agents",
        "2",
        "--agent-index",
        "0",
        "--coordinator",
        &format!("127.0.0.1:{port}"),
        "--coordinator-wait",
        "1s",
    ];
    // Run with `token` as PLUMB_TOKEN (none: unset), timed.
    let with_token = |args: &[&str], token: Option<&str>| {
        let mut command = env.command(args);
        match token {
            Some(t) => command.env("PLUMB_TOKEN", t),
            None => command.env_remove("PLUMB_TOKEN"),
        };
        let start = std::time::Instant::now();
        (Run::of(command.output().unwrap()), start.elapsed())
    };
    let (r, _) = with_token(&args, Some(TOKEN));
    r.assert_code(2);
    assert!(
        r.stderr.contains(&format!(
            "cannot reach the coordinator at 127.0.0.1:{port} (tried for 1"
        )) && r.stderr.contains("nothing was sent"),
        "{}",
        r.stderr
    );
    let (r, _) = with_token(&args, None);
    r.assert_code(2);
    assert!(r.stderr.contains("needs the token"), "{}", r.stderr);
    assert!(with_token(&args, Some("short"))
        .0
        .stderr
        .contains("at least 16"));
    // Not an address: refused at once, not retried for the wait.
    let mut bad = args;
    bad[11] = "not an address";
    let (r, took) = with_token(&bad, Some(TOKEN));
    r.assert_code(2);
    assert!(r.stderr.contains("is not HOST:PORT"), "{}", r.stderr);
    assert!(took < Duration::from_secs(1), "{took:?}");
    // Something that accepts and says nothing: named, within the wait, in words.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let silent_addr = silent.local_addr().unwrap().to_string();
    let mut quiet = args;
    quiet[11] = &silent_addr;
    let (r, took) = with_token(&quiet, Some(TOKEN));
    r.assert_code(2);
    let said = format!("nothing at {silent_addr} answered as a plumb coordinator");
    assert!(
        r.stderr.contains(&said) && !r.stderr.contains("os error"),
        "{}",
        r.stderr
    );
    assert!(took < Duration::from_secs(5), "{took:?}");
    drop(silent);
    assert_eq!(sent.load(Ordering::SeqCst), 0);
}

#[test]
fn an_agent_killed_mid_test_leaves_an_incomplete_result_and_a_late_one_is_refused() {
    let env = Env::new();
    let (url, _) = counted_server();
    let port = free_port();
    let co = coordinator(&env, port, 2, &["--silence", "2s"]);
    let kept = agent(&env, &url, port, 2, 0, "200", "4s");
    let mut killed = agent(&env, &url, port, 2, 1, "200", "4s");
    // Joined, clocks measured, 1 s lead, then 1 s into the test.
    std::thread::sleep(Duration::from_millis(3000));
    let r = ended(agent(&env, &url, port, 2, 1, "200", "4s"));
    r.assert_code(2);
    assert!(r.stderr.contains("joined after the start"), "{}", r.stderr);
    killed.kill().unwrap();
    let _ = killed.wait();
    ended(kept).assert_code(0);
    let r = ended(co);
    r.assert_code(2);
    assert!(
        r.stderr
            .contains("agent-1 lost: its connection ended before its result"),
        "{}",
        r.stderr
    );
    assert!(
        r.stdout
            .contains("The result is incomplete: 1 of 2 agents' results"),
        "{}",
        r.stdout
    );
    let doc = read_doc(&env.path("all.json"));
    match &doc.status {
        plumb_model::RunStatus::Failed { message } => {
            assert!(message.starts_with("incomplete: 1 of 2"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    let codes: Vec<_> = doc.benchmarks[0]
        .diagnostics
        .iter()
        .map(|d| d.code())
        .collect();
    assert!(
        codes.contains(&plumb_model::DiagnosticCode::DifferentSchedules),
        "the missing share said: {codes:?}"
    );
}

#[test]
fn an_agent_whose_clock_is_seconds_off_starts_with_the_others() {
    // libfaketime moves the agent's wall clock 3 s ahead (its monotonic clock, which the
    // schedule runs on, left alone). Unmeasured, its share would start 3 s early and its
    // window would not overlap the other's: the merge would refuse.
    if std::process::Command::new("faketime")
        .arg("--version")
        .output()
        .is_err()
    {
        plumb_testkit::skip("faketime is not installed (apt install faketime)");
        return;
    }
    let env = Env::new();
    let (url, sent) = counted_server();
    let port = free_port();
    let co = coordinator(&env, port, 2, &[]);
    let plain = agent(&env, &url, port, 2, 0, "400", "2s");
    let mut args: Vec<String> = vec![
        "-f".into(),
        "+3s".into(),
        env!("CARGO_BIN_EXE_plumb").into(),
    ];
    args.extend(agent_args(&url, port, 2, 1, "400", "2s"));
    let skewed = std::process::Command::new("faketime")
        .args(&args)
        .env("FAKETIME_DONT_FAKE_MONOTONIC", "1")
        .env("PLUMB_TOKEN", TOKEN)
        .current_dir(env.dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    ended(plain).assert_code(0);
    let r = ended(skewed);
    r.assert_code(0);
    assert!(r.stderr.contains("this clock is 3.0"), "{}", r.stderr);
    let r = ended(co);
    r.assert_code(0);
    assert!(
        r.stderr.contains("agent-1's clock is 3.0") && r.stderr.contains("more than the warm-up"),
        "{}",
        r.stderr
    );
    let doc = read_doc(&env.path("all.json"));
    let l = doc.benchmarks[0].load().unwrap();
    assert!((795..=801).contains(&l.due), "{} due", l.due);
    assert_eq!(sent.load(Ordering::SeqCst), 1000);
    // Both shares' windows on the coordinator's clock: they overlap within the offset's
    // uncertainty, not 3 s apart.
    let windows: Vec<_> = [0, 1]
        .iter()
        .map(|i| {
            let d = read_doc(&env.path(&format!("all.agent-{i}.json")));
            d.benchmarks[0].load().unwrap().window.unwrap()
        })
        .collect();
    let apart = windows[0].start.since(windows[1].start).as_secs_f64()
        + windows[1].start.since(windows[0].start).as_secs_f64();
    assert!(apart < 0.05, "windows {apart} s apart: {windows:?}");
}

#[test]
fn an_agent_stopped_by_ctrl_c_is_kept_apart_and_the_rest_merged() {
    let env = Env::new();
    let (url, _) = counted_server();
    let port = free_port();
    let co = coordinator(&env, port, 2, &[]);
    let kept = agent(&env, &url, port, 2, 0, "200", "3s");
    let stopped = agent(&env, &url, port, 2, 1, "200", "3s");
    // Joined, 1 s lead, half a second of warm-up, 1 s measured: then Ctrl-C.
    std::thread::sleep(Duration::from_millis(3000));
    signal(&stopped, "-INT");
    let r = ended(stopped);
    assert_eq!(r.code, 130, "{}", r.stderr);
    ended(kept).assert_code(0);
    let r = ended(co);
    r.assert_code(2);
    assert!(
        r.stdout
            .contains("agent-1: its test did not finish; what it measured is in"),
        "{}",
        r.stdout
    );
    // Its partial result is kept beside the merged one, marked as interrupted.
    let part = read_doc(&env.path("all.agent-1.json"));
    assert!(matches!(
        part.status,
        plumb_model::RunStatus::Interrupted { .. }
    ));
    let doc = read_doc(&env.path("all.json"));
    let plumb_model::ProducerSettings::Merged(m) = &doc.settings.producer else {
        panic!()
    };
    assert_eq!(
        m.inputs.len(),
        1,
        "only the whole share merged: {:?}",
        m.inputs
    );
}

/// A token given with `--token` and a credential header given with `-H` are in no file a
/// coordinated test writes (the agents' exports and pages, the merged result, each
/// agent's part) and in nothing it prints: the command lines the results record say
/// `--token ***` and `Authorization: ***`.
#[test]
fn tokens_and_header_values_on_command_lines_are_kept_nowhere() {
    const HEADER_SECRET: &str = "Bearer HDR-5ecret-value";
    let env = Env::new();
    let (url, _) = counted_server();
    let port = free_port();
    let co = coordinator(&env, port, 2, &["--token", TOKEN]);
    let agents: Vec<Child> = (0..2u32)
        .map(|i| {
            let mut args = agent_args(&url, port, 2, i, "200", "1s");
            for extra in [
                "--token".to_string(),
                TOKEN.to_string(),
                "-H".to_string(),
                format!("Authorization: {HEADER_SECRET}"),
                format!("--header=Cookie: c={HEADER_SECRET}"),
                "--export-json".to_string(),
                env.path(&format!("agent-{i}.json")).display().to_string(),
                "--report".to_string(),
                env.path(&format!("agent-{i}.html")).display().to_string(),
            ] {
                args.push(extra);
            }
            spawn(&env, &args)
        })
        .collect();
    let mut said = String::new();
    for a in agents {
        let r = ended(a);
        r.assert_code(0);
        said += &(r.stdout + &r.stderr);
    }
    let r = ended(co);
    r.assert_code(0);
    said += &(r.stdout + &r.stderr);
    let mut files = 0;
    for entry in std::fs::read_dir(env.path(".")).unwrap() {
        let path = entry.unwrap().path();
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        files += 1;
        for secret in [TOKEN, "HDR-5ecret"] {
            assert!(!text.contains(secret), "{secret} in {}", path.display());
        }
    }
    assert!(files >= 7, "{files} files read");
    assert!(
        !said.contains(TOKEN) && !said.contains("HDR-5ecret"),
        "{said}"
    );
    let part = std::fs::read_to_string(env.path("all.agent-0.json")).unwrap();
    assert!(
        part.contains("\"***\""),
        "the token's place kept, hidden: {part}"
    );
    assert!(
        part.contains("Authorization: ***"),
        "the header's name is kept"
    );
}

/// Issue 45, defect 33: a coordinator stopped by SIGTERM — before the start, and with its
/// agents mid-test — exits 143 and names SIGTERM, not exit 2 and "(Ctrl-C)"; it says
/// where the agents' results are; its agents, their results undelivered, exit 2.
#[test]
fn a_coordinator_stopped_by_sigterm_exits_143_and_says_so() {
    let env = Env::new();
    let port = free_port();
    let co = coordinator(&env, port, 2, &[]);
    std::thread::sleep(Duration::from_millis(500));
    signal(&co, "-TERM");
    let r = ended(co);
    assert_eq!(r.code, 143, "{}", r.stderr);
    assert!(r.stderr.contains("stopped by SIGTERM"), "{}", r.stderr);
    // Mid-test: two agents loading, then the coordinator stopped.
    let (url, _) = counted_server();
    let port = free_port();
    let co = coordinator(&env, port, 2, &[]);
    let agents: Vec<Child> = (0..2)
        .map(|i| agent(&env, &url, port, 2, i, "100", "4s"))
        .collect();
    std::thread::sleep(Duration::from_millis(3000));
    signal(&co, "-TERM");
    let r = ended(co);
    assert_eq!(r.code, 143, "{}", r.stderr);
    assert!(
        r.stderr.contains("SIGTERM") && !r.stderr.contains("Ctrl-C"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("each agent keeps its own result"),
        "{}",
        r.stderr
    );
    // An agent whose coordinator is gone did not do its part: exit 2, said.
    for a in agents {
        let r = ended(a);
        r.assert_code(2);
        assert!(
            r.stderr.contains("did not receive this agent's result"),
            "{}",
            r.stderr
        );
    }
}
