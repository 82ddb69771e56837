//! `plumb load`'s options read as a command line and planned: what the result records,
//! what is sent, and each refusal before anything is sent.
use super::*;
use clap::Parser;

#[derive(Parser)]
struct Line {
    #[command(flatten)]
    load: LoadOptions,
}

fn options(args: &[&str]) -> LoadOptions {
    Line::try_parse_from(std::iter::once("load").chain(args.iter().copied()))
        .unwrap()
        .load
}

/// `plumb load`'s line for agent 0 of 2 at 1/s, then `more`.
fn agent_0_of_2<'a>(more: &[&'a str]) -> Vec<&'a str> {
    let mut line = vec![
        "load",
        "http://x/",
        "--rate",
        "1",
        "--agents",
        "2",
        "--agent-index",
        "0",
    ];
    line.extend_from_slice(more);
    line
}

fn no_env(_: &str) -> Option<String> {
    None
}

#[test]
fn an_open_loop_records_its_rate_and_sends_its_headers() {
    let o = options(&["http://127.0.0.1:9/", "--rate", "100", "-H", "X-A: 1"]);
    let planned = o.plan(no_env).unwrap();
    let (config, settings) = &planned.targets[0];
    assert_eq!(settings.url, "http://127.0.0.1:9/");
    assert!(matches!(
        settings.mode,
        LoadMode::Open {
            max_in_flight: 64,
            poisson_seed: None,
            ..
        }
    ));
    assert_eq!(config.headers, [("X-A".to_string(), "1".to_string())]);
    assert!(planned.notices.is_empty());
}

#[test]
fn one_of_several_agents_is_named_by_its_index_from_the_scheduler() {
    let o = options(&["http://x/", "--rate", "100", "--agents", "4"]);
    let env = |k: &str| (k == "SLURM_PROCID").then(|| "2".to_string());
    let (_, settings) = &o.plan(env).unwrap().targets[0];
    assert_eq!(settings.agent.as_deref(), Some("agent-2"));
    assert!(matches!(
        o.plan(no_env),
        Err(PlanError::NoIndex { count: 4 })
    ));
}

#[test]
fn http2_records_its_streams_as_the_depth_of_a_connection() {
    let o = options(&["https://x/", "--rate", "1", "--http2", "--streams", "8"]);
    let (config, settings) = &o.plan(no_env).unwrap().targets[0];
    assert_eq!(settings.pipeline, 8);
    assert_eq!(config.tls.alpn[0], b"h2");
}

#[test]
fn tls_options_for_plain_http_are_said_and_ignored() {
    let o = options(&["http://x/", "--rate", "1", "-k", "--tls-resume", "off"]);
    let notices = o.plan(no_env).unwrap().notices;
    assert_eq!(
        notices,
        ["--insecure, --tls-resume ignored: http://x/ is plain http, without TLS"]
    );
}

#[test]
fn what_describes_one_run_is_refused_with_several() {
    let o = options(&["http://x/", "--rate", "1", "--repeat", "3", "--hlog", "h"]);
    let e = o.plan(no_env).err().unwrap();
    assert!(matches!(
        e,
        PlanError::OneRunOnly {
            option: "--hlog",
            runs: "--repeat"
        }
    ));
    let o = options(&["http://x/", "http://x/", "--rate", "1"]);
    assert!(matches!(o.plan(no_env), Err(PlanError::SameTargetTwice(_))));
    let o = options(&[
        "http://x/",
        "http://y/",
        "--rate",
        "1",
        "--start-at",
        "1800000000",
    ]);
    let e = o.plan(no_env).err().unwrap().to_string();
    assert!(
        e.starts_with("--start-at describes one run; with two targets"),
        "{e}"
    );
}

#[test]
fn a_zero_duration_and_a_bad_header_are_refused() {
    let o = options(&["http://x/", "--rate", "1", "--duration", "0s"]);
    assert!(matches!(o.plan(no_env), Err(PlanError::Zero("--duration"))));
    let o = options(&["http://x/", "--rate", "1", "-H", "nocolon"]);
    assert!(matches!(o.plan(no_env), Err(PlanError::Header(_))));
}

#[derive(Parser)]
struct Simulated {
    #[command(flatten)]
    simulate: SimulateOptions,
}

fn simulated(args: &[&str]) -> Result<plumb_model::SimulateSettings, simulate::StallTooLong> {
    let line = std::iter::once("simulate").chain(args.iter().copied());
    Simulated::try_parse_from(line).unwrap().simulate.settings()
}

#[test]
fn a_simulation_stalls_every_500th_request_unless_told_otherwise() {
    use plumb_model::SimulatedStall;
    let every = simulated(&[]).unwrap().stall;
    assert!(matches!(
        every,
        Some(SimulatedStall::Requests { requests: 500, .. })
    ));
    assert!(simulated(&["--stall", "0s"]).unwrap().stall.is_none());
    let period = simulated(&["--stall-period", "1s"]).unwrap().stall;
    assert!(matches!(period, Some(SimulatedStall::Period { .. })));
    assert!(simulated(&["--stall-period", "100ms"]).is_err());
}

#[test]
fn sessions_are_resumed_on_kept_connections_unless_told() {
    let resume = |args: &[&str]| {
        let mut line = vec!["https://x/", "--rate", "1"];
        line.extend(args);
        options(&line)
            .tls
            .options(line.contains(&"--new-connection"), false)
            .resume
    };
    assert!(resume(&[]));
    assert!(!resume(&["--new-connection"]));
    assert!(resume(&["--new-connection", "--tls-resume", "on"]));
    assert!(!resume(&["--tls-resume", "off"]));
}

#[test]
fn a_closed_loop_records_its_connections_and_a_given_agent_name_wins() {
    let o = options(&[
        "http://x/",
        "--closed",
        "8",
        "--agents",
        "2",
        "--agent-index",
        "1",
        "--agent",
        "east",
    ]);
    let (_, settings) = &o.plan(no_env).unwrap().targets[0];
    assert!(matches!(settings.mode, LoadMode::Closed { connections: 8 }));
    assert_eq!(settings.agent.as_deref(), Some("east"));
}

#[test]
fn a_coordinated_agent_runs_once() {
    let o = Line::try_parse_from(agent_0_of_2(&[
        "--coordinator",
        "127.0.0.1:9",
        "--repeat",
        "2",
    ]))
    .unwrap()
    .load;
    let e = o.plan(no_env).err().unwrap();
    assert!(matches!(
        e,
        PlanError::OneRunOnly {
            option: "--coordinator",
            runs: "--repeat"
        }
    ));
}

#[test]
fn tls_options_for_a_plain_mix_are_said_once_for_the_mix() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("targets");
    std::fs::write(&file, "GET http://x/a\n\nGET http://x/b\n").unwrap();
    let o = options(&[
        "--targets",
        file.to_str().unwrap(),
        "--rate",
        "1",
        "--cacert",
        "ca.pem",
    ]);
    let planned = o.plan(no_env).unwrap();
    assert_eq!(planned.targets.len(), 1);
    assert_eq!(
        planned.notices,
        ["--cacert ignored: every target of the mix is plain http, without TLS"]
    );
}

#[test]
fn a_coordinator_is_host_and_port() {
    let line = |addr: &str| {
        let args = agent_0_of_2(&["--coordinator", addr]);
        Line::try_parse_from(args).map(|l| l.load.link.coordinator)
    };
    for good in ["10.0.0.2:7207", "plumb-coordinator:7207", "[::1]:7207"] {
        assert_eq!(line(good).unwrap().as_deref(), Some(good));
    }
    for bad in [
        "not an address",
        "host",
        "host:0",
        "host:99999",
        ":7207",
        "h:x",
    ] {
        let e = line(bad).err().unwrap().to_string();
        assert!(e.contains("is not HOST:PORT"), "{bad}: {e}");
    }
}
