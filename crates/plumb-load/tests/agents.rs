//! The agents' protocol end to end over loopback, without any load: joins, refusals
//! (a stranger, a mismatch, an index taken twice, a late join, an oversized frame), one
//! start for all, live counts, results, and an agent lost to silence.
use plumb_load::agents::agent::Link;
use plumb_load::agents::auth::Token;
use plumb_load::agents::coordinator::{coordinate, CoordinateError, Notice, Options, Outcome};
use plumb_load::agents::terms::Terms;
use plumb_load::agents::uplink::{Ending, Uplink};
use plumb_load::agents::{wire, AgentError};
use plumb_model::quantity::{Duration as PlumbDuration, Timestamp};
use std::collections::BTreeMap;
use std::net::TcpListener;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{channel, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

const SECRET: &[u8] = b"a shared secret of 32 bytes, ok!";

fn terms(index: u32, count: u32, rate: &str) -> Terms {
    let mut agreed = BTreeMap::new();
    agreed.insert("--rate".to_string(), rate.to_string());
    agreed.insert("URL".to_string(), "http://10.0.0.1/".to_string());
    Terms {
        count,
        index,
        name: format!("agent-{index}"),
        agreed,
    }
}

fn options(count: u32) -> Options {
    Options {
        count,
        lead: Duration::from_millis(300),
        silence: Duration::from_millis(1500),
        join_within: Some(Duration::from_secs(20)),
        max_uncertainty: Duration::from_millis(20),
    }
}

/// A coordinator on an ephemeral loopback port; its notices as lines on `said`.
fn coordinator(
    opts: Options,
    said: Sender<String>,
) -> (String, JoinHandle<Result<Outcome, CoordinateError>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let handle = std::thread::spawn(move || {
        let stop = AtomicBool::new(false);
        let mut notify = |n: Notice| {
            let line = match n {
                Notice::Refused { reason, name, .. } => {
                    format!(
                        "refused: {}{reason}",
                        name.map_or(String::new(), |n| format!("{n}: "))
                    )
                }
                Notice::Joined { part, .. } => format!("joined {}", part.name()),
                Notice::Left { part, reason } => format!("left {}: {reason}", part.name()),
                Notice::Start { .. } => "start".into(),
                Notice::Lost { part, reason } => format!("lost {}: {reason}", part.name()),
                Notice::Received { part } => format!("received {}", part.name()),
                _ => return,
            };
            let _ = said.send(line);
        };
        coordinate(
            listener,
            Token::new(SECRET).unwrap(),
            &opts,
            &stop,
            &mut notify,
        )
    });
    (addr, handle)
}

fn join(addr: &str, t: &Terms, secret: &[u8]) -> Result<Link, AgentError> {
    let stop = AtomicBool::new(false);
    Link::join(
        addr,
        &Token::new(secret).unwrap(),
        t,
        Duration::from_secs(5),
        &stop,
    )
}

/// Joins, measures the clock, waits for the start; then reports for `report` and
/// sends `result`.
fn agent(addr: String, t: Terms, report: Duration, result: &'static str) -> JoinHandle<Timestamp> {
    std::thread::spawn(move || {
        let mut link = join(&addr, &t, SECRET).unwrap();
        let offset = link.measure_clock().unwrap();
        // Loopback, one clock: the offset is within its own uncertainty of 0.
        let within = offset.uncertainty().max(PlumbDuration::from_micros(50));
        assert!(offset.offset.magnitude() <= within, "{offset:?}");
        let stop = AtomicBool::new(false);
        let start = link.await_start(offset, &stop).unwrap();
        let uplink = Uplink::start(link.into_stream(), 1);
        std::thread::sleep(report);
        uplink
            .finish(Ending::Document(result.as_bytes().to_vec()))
            .unwrap();
        start.coordinator
    })
}

#[test]
fn agents_join_start_together_and_their_results_arrive() {
    let (said, heard) = channel();
    let (addr, coord) = coordinator(options(3), said);
    let agents: Vec<_> = (0..3)
        .map(|i| {
            agent(
                addr.clone(),
                terms(i, 3, "2000/s"),
                Duration::from_millis(700),
                "{}",
            )
        })
        .collect();
    let starts: Vec<Timestamp> = agents.into_iter().map(|a| a.join().unwrap()).collect();
    let outcome = coord.join().unwrap().unwrap();
    assert!(starts.iter().all(|&s| s == outcome.start_at), "one start");
    let now = Timestamp::now();
    assert!(outcome.start_at < now && now.since(outcome.start_at).as_secs_f64() < 10.0);
    assert_eq!(outcome.parts.len(), 3);
    for (i, p) in outcome.parts.iter().enumerate() {
        assert_eq!(p.index(), i as u32);
        assert_eq!(p.result.as_deref(), Some(&b"{}"[..]));
        assert!(p.lost.is_none() && p.failed.is_none());
        assert!(p.offset.is_some());
    }
    let lines: Vec<String> = heard.try_iter().collect();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("received")).count(),
        3,
        "{lines:?}"
    );
}

#[test]
fn strangers_mismatches_duplicates_and_late_joins_are_refused_and_said() {
    let (said, heard) = channel();
    let (addr, coord) = coordinator(options(2), said);
    // Another token: refused on both sides, never joined.
    let e = join(
        &addr,
        &terms(0, 2, "2000/s"),
        b"another secret of 32 bytes, no!!",
    )
    .unwrap_err();
    assert!(e.to_string().contains("token does not match"), "{e}");
    let mut first = join(&addr, &terms(0, 2, "2000/s"), SECRET).unwrap();
    let e = join(&addr, &terms(1, 2, "1000/s"), SECRET).unwrap_err();
    assert!(
        e.to_string()
            .contains("--rate 1000/s where the others have 2000/s"),
        "{e}"
    );
    let e = join(&addr, &terms(0, 2, "2000/s"), SECRET).unwrap_err();
    assert!(
        e.to_string().contains("index 0 is already agent-0's"),
        "{e}"
    );
    let e = join(&addr, &terms(1, 3, "2000/s"), SECRET).unwrap_err();
    assert!(
        e.to_string()
            .contains("--agents 3 where the coordinator waits for 2"),
        "{e}"
    );
    // A peer announcing a 16 MiB frame before proving anything: dropped unread.
    let mut raw = std::net::TcpStream::connect(&addr).unwrap();
    let _hello = wire::read_frame(&mut raw, wire::BEFORE_AUTH).unwrap();
    std::io::Write::write_all(&mut raw, &(16u32 << 20).to_be_bytes()).unwrap();
    let offset = first.measure_clock().unwrap();
    let second = agent(
        addr.clone(),
        terms(1, 2, "2000/s"),
        Duration::from_millis(600),
        "{}",
    );
    let stop = AtomicBool::new(false);
    first.await_start(offset, &stop).unwrap();
    // After the start: a third agent is refused as late.
    std::thread::sleep(Duration::from_millis(100));
    let e = join(&addr, &terms(1, 2, "2000/s"), SECRET).unwrap_err();
    assert!(e.to_string().contains("joined after the start"), "{e}");
    let up = Uplink::start(first.into_stream(), 1);
    std::thread::sleep(Duration::from_millis(600));
    up.finish(Ending::Document(b"{}".to_vec())).unwrap();
    second.join().unwrap();
    let outcome = coord.join().unwrap().unwrap();
    assert!(outcome.parts.iter().all(|p| p.result.is_some()));
    let lines: Vec<String> = heard.try_iter().collect();
    let refused = |s: &str| {
        lines
            .iter()
            .any(|l| l.starts_with("refused") && l.contains(s))
    };
    for why in [
        "does not hold the token",
        "--rate 1000/s",
        "index 0 is already",
        "after the start",
        "at most 4.0 KiB",
    ] {
        assert!(refused(why), "{why:?} not in {lines:#?}");
    }
}

#[test]
fn an_agent_silent_after_the_start_is_lost_and_the_others_still_count() {
    let (said, heard) = channel();
    let (addr, coord) = coordinator(options(2), said);
    let live = agent(
        addr.clone(),
        terms(0, 2, "2000/s"),
        Duration::from_millis(2500),
        "{}",
    );
    let mut silent = join(&addr, &terms(1, 2, "2000/s"), SECRET).unwrap();
    let offset = silent.measure_clock().unwrap();
    let stop = AtomicBool::new(false);
    silent.await_start(offset, &stop).unwrap();
    // Holds its connection open and says nothing (a stopped process, a cut cable).
    let outcome = coord.join().unwrap().unwrap();
    live.join().unwrap();
    drop(silent);
    let lost = &outcome.parts[1];
    assert!(lost.result.is_none());
    assert!(
        lost.lost.as_deref().unwrap().contains("silent for"),
        "{:?}",
        lost.lost
    );
    assert!(outcome.parts[0].result.is_some());
    assert!(heard.try_iter().any(|l| l.starts_with("lost agent-1")));
}

#[test]
fn a_peer_that_floods_after_joining_is_dropped() {
    use plumb_load::agents::messages::{self, FromAgent};
    let (said, heard) = channel();
    let (addr, _coord) = coordinator(options(2), said);
    // Clock rounds past the bound.
    let mut pinger = join(&addr, &terms(0, 2, "2000/s"), SECRET)
        .unwrap()
        .into_stream();
    for _ in 0..70 {
        let t1 = Timestamp::now();
        if messages::send(&mut pinger, &FromAgent::Ping { t1 }).is_err() {
            break;
        }
    }
    // Live counts far faster than an agent sends them (two a second).
    let mut flooder = join(&addr, &terms(1, 2, "2000/s"), SECRET)
        .unwrap()
        .into_stream();
    let live = FromAgent::Live {
        ok: 1,
        errors: 0,
        latency: Vec::new(),
        in_flight: 0,
        draining: None,
    };
    for _ in 0..100 {
        if messages::send(&mut flooder, &live).is_err() {
            break;
        }
    }
    let mut lines = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while lines.len() < 4 && std::time::Instant::now() < deadline {
        if let Ok(l) = heard.recv_timeout(Duration::from_millis(200)) {
            lines.push(l);
        }
    }
    let left = |name: &str, why: &str| {
        lines
            .iter()
            .any(|l| l.starts_with(&format!("left {name}")) && l.contains(why))
    };
    assert!(left("agent-0", "more than 64 clock rounds"), "{lines:#?}");
    assert!(left("agent-1", "messages a second: dropped"), "{lines:#?}");
}

#[test]
fn an_agent_refuses_a_coordinator_that_cannot_prove_the_token() {
    use plumb_load::agents::messages::{self, hex, FromCoordinator};
    // A listener posing as the coordinator: a hello, then a proof made without the token.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        let (mut s, _) = listener.accept().unwrap();
        let hello = FromCoordinator::Hello {
            protocol: messages::PROTOCOL,
            nonce: hex(&[7; 32]),
        };
        messages::send(&mut s, &hello).unwrap();
        let _proof = wire::read_frame(&mut s, wire::BEFORE_AUTH).unwrap();
        let fake = FromCoordinator::Proof {
            proof: hex(&[0; 32]),
        };
        messages::send(&mut s, &fake).unwrap();
        // Whatever the agent would say next (its terms) must never arrive.
        assert!(wire::read_frame(&mut s, wire::CONTROL).is_err());
    });
    let e = join(&addr, &terms(0, 1, "2000/s"), SECRET).unwrap_err();
    assert!(e.to_string().contains("did not prove the token"), "{e}");
}

#[test]
fn a_stranger_trickling_bytes_is_dropped_when_the_handshake_time_is_up() {
    use std::io::Write;
    let (said, heard) = channel();
    let (addr, _coord) = coordinator(options(2), said);
    let mut slow = std::net::TcpStream::connect(&addr).unwrap();
    let _hello = wire::read_frame(&mut slow, wire::BEFORE_AUTH).unwrap();
    let began = std::time::Instant::now();
    // A frame of 4 KiB announced, then a byte a second: each read is quick, the whole
    // never ends — but the handshake's deadline does.
    slow.write_all(&4096u32.to_be_bytes()).unwrap();
    let mut closed = false;
    for _ in 0..12 {
        std::thread::sleep(Duration::from_secs(1));
        if slow.write_all(b"x").is_err() {
            closed = true;
            break;
        }
    }
    let line = heard.recv_timeout(Duration::from_secs(10)).unwrap();
    assert!(
        line.contains("no proof of the token (none within 5 s)"),
        "{line}"
    );
    let took = began.elapsed();
    assert!(took < Duration::from_secs(8), "held {took:?}");
    // The coordinator closed its side: a write fails at the latest on the next one.
    assert!(closed || slow.write_all(b"x").is_err() || slow.write_all(b"x").is_err());
}
