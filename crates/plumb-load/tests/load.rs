//! `plumb load` against a real HTTP server started here, one that can stall on demand:
//! every `every`-th request freezes the whole server for `stall` (like a GC pause).
//! Expectations are derived from the stall parameters, not copied from a run.

use plumb_load::http::{run, LoadConfig, Pacing, TargetError};
use plumb_load::LoadError;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[derive(Clone, Copy)]
enum Behaviour {
    Ok,
    /// Every n-th request answers 503.
    FailEvery(u64),
    /// Never answers.
    Silent,
    /// Answers with something that is not HTTP.
    Garbage,
    /// Every n-th request: the connection is dropped instead of answered.
    ResetEvery(u64),
}

/// Starts the server on its own thread and runtime; returns its address.
fn server(every: u64, stall: Duration, behaviour: Behaviour) -> SocketAddr {
    let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = std_listener.local_addr().unwrap();
    std_listener.set_nonblocking(true).unwrap();
    let count = Arc::new(AtomicU64::new(0));
    let stalled_until = Arc::new(Mutex::new(Instant::now()));
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(std_listener).unwrap();
            loop {
                let (mut sock, _) = listener.accept().await.unwrap();
                let (count, stalled_until) = (count.clone(), stalled_until.clone());
                tokio::spawn(async move {
                    let mut buf = Vec::new();
                    let mut chunk = [0u8; 4096];
                    loop {
                        while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                            match sock.read(&mut chunk).await {
                                Ok(0) | Err(_) => return,
                                Ok(n) => buf.extend_from_slice(&chunk[..n]),
                            }
                        }
                        let end = buf.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
                        buf.drain(..end);
                        let n = count.fetch_add(1, Ordering::SeqCst) + 1;
                        let until = {
                            let mut u = stalled_until.lock().unwrap();
                            if every > 0 && n % every == 0 {
                                *u = Instant::now() + stall;
                            }
                            *u
                        };
                        tokio::time::sleep_until(until.into()).await;
                        let reply: &[u8] = match behaviour {
                            Behaviour::FailEvery(k) if n % k == 0 => {
                                b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n"
                            }
                            Behaviour::Silent => {
                                tokio::time::sleep(Duration::from_secs(3600)).await;
                                return;
                            }
                            Behaviour::Garbage => b"SSH-2.0-OpenSSH_9.2\r\n\r\n",
                            Behaviour::ResetEvery(k) if n % k == 0 => return,
                            _ => b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
                        };
                        if sock.write_all(reply).await.is_err() {
                            return;
                        }
                    }
                });
            }
        });
    });
    addr
}

fn cfg(addr: SocketAddr, mode: Pacing, secs: f64) -> LoadConfig {
    LoadConfig {
        url: format!("http://{addr}/"),
        method: "GET".into(),
        headers: vec![],
        body: vec![],
        duration: Duration::from_secs_f64(secs),
        warmup: Duration::from_millis(200),
        timeout: Duration::from_secs(2),
        drain: Duration::from_secs(2),
        threads: 1,
        pipeline: 1,
        max_body: 1 << 20,
        mode,
        start_at: None,
        hlog: None,
        spin: plumb_load::http::DEFAULT_SPIN,
        tls: Default::default(),
        new_connection: false,
        mix: Vec::new(),
        seed: 1,
        http2: false,
        streams: 1,
        agents: None,
    }
}

fn go(c: &LoadConfig) -> plumb_load::http::LoadReport {
    run(c, Arc::new(AtomicBool::new(false)), None).unwrap()
}

#[test]
fn open_loop_shows_the_stall_and_closed_loop_hides_it() {
    // 200 req/s and a 100 ms stall every 200 requests: once a second, the 20 requests due
    // during the stall wait between 100 ms and ~5 ms, i.e. 10 % of all requests, so the
    // top 1 % (p99) lies within the stall's first 10 ms: 90–100 ms, plus service time.
    let (rate, every, stall) = (200.0, 200u64, Duration::from_millis(100));
    let addr = server(every, stall, Behaviour::Ok);
    let open = go(&cfg(
        addr,
        Pacing::Open {
            rate,
            poisson_seed: None,
            max_in_flight: 1000,
        },
        4.0,
    ));
    let p99 = open.latency.percentile_us(99.0) / 1e3;
    assert!((80.0..130.0).contains(&p99), "open p99 {p99} ms");
    assert_eq!(open.error_count(), 0);
    assert!(
        (open.achieved_rate() - rate).abs() < rate * 0.05,
        "{}",
        open.achieved_rate()
    );
    // Send lateness stays small: the generator kept its schedule.
    assert!(open.lateness.as_ref().unwrap().percentile_us(99.0) < 20_000.0);

    // One closed-loop connection: each stall delays one request of every 200 (0.5 %), so
    // the p99 is the normal service time, far under the stall.
    let addr = server(every, stall, Behaviour::Ok);
    let closed = go(&cfg(addr, Pacing::Closed { connections: 1 }, 3.0));
    let p99 = closed.latency.percentile_us(99.0) / 1e3;
    assert!(p99 < 20.0, "closed p99 {p99} ms hides the 100 ms stalls");
    assert!(
        closed.latency.max_us() / 1e3 >= 95.0,
        "the stalled requests themselves are there"
    );
}

#[test]
fn errors_are_counted_apart_from_latency() {
    let addr = server(0, Duration::ZERO, Behaviour::FailEvery(10));
    let r = go(&cfg(
        addr,
        Pacing::Open {
            rate: 200.0,
            poisson_seed: Some(1),
            max_in_flight: 100,
        },
        1.0,
    ));
    let errors = r.errors.get("status 503").copied().unwrap_or(0);
    assert!(errors > 0);
    assert_eq!(r.latency.count(), r.ok);
    assert_eq!(
        r.ok + r.error_count(),
        r.due,
        "every due request is accounted for"
    );
}

#[test]
fn a_silent_server_times_out_and_garbage_is_a_protocol_error() {
    let addr = server(0, Duration::ZERO, Behaviour::Silent);
    let mut c = cfg(
        addr,
        Pacing::Open {
            rate: 20.0,
            poisson_seed: None,
            max_in_flight: 100,
        },
        0.5,
    );
    c.timeout = Duration::from_millis(300);
    let r = go(&c);
    assert!(
        r.errors.get("timeout").copied().unwrap_or(0) >= 5,
        "{:?}",
        r.errors
    );
    assert_eq!(r.ok, 0);

    let addr = server(0, Duration::ZERO, Behaviour::Garbage);
    let r = go(&cfg(
        addr,
        Pacing::Open {
            rate: 20.0,
            poisson_seed: None,
            max_in_flight: 100,
        },
        0.5,
    ));
    let garbled = r.errors.get("not an HTTP response").copied().unwrap_or(0);
    assert!(garbled >= 5 && r.ok == 0, "{:?}", r.errors);
    assert!(
        r.examples["not an HTTP response"].contains("SSH-2.0"),
        "the example shows what came back: {:?}",
        r.examples
    );
}

#[test]
fn connections_reset_mid_test_are_counted_and_the_test_goes_on() {
    let addr = server(0, Duration::ZERO, Behaviour::ResetEvery(7));
    let r = go(&cfg(
        addr,
        Pacing::Open {
            rate: 200.0,
            poisson_seed: None,
            max_in_flight: 100,
        },
        1.0,
    ));
    // Every 7th request finds its kept-alive connection closed under it, unanswered:
    // it is sent once more on a new connection (counted), or fails if that happens twice.
    let closed = r
        .errors
        .get("connection closed before a response")
        .copied()
        .unwrap_or(0);
    assert!(
        r.retried + closed > 10,
        "{} retried, {:?}",
        r.retried,
        r.errors
    );
    assert!(r.retried > 0, "{:?}", r.errors);
    assert!(r.ok > 100, "later requests reconnect and succeed: {}", r.ok);
    assert_eq!(r.ok + r.error_count(), r.due);
}

#[test]
fn unreachable_targets_fail_with_a_clear_message() {
    // A port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut c = cfg(
        format!("127.0.0.1:{port}").parse().unwrap(),
        Pacing::Closed { connections: 1 },
        0.1,
    );
    let fails = |c: &LoadConfig| {
        let e = run(c, Arc::new(AtomicBool::new(false)), None)
            .err()
            .unwrap();
        (e.to_string(), e)
    };
    let (text, e) = fails(&c);
    assert!(matches!(e, LoadError::Unreachable { .. }), "{e:?}");
    assert!(
        text.contains("cannot reach") && text.contains("refused"),
        "{text}"
    );
    c.url = "http://no-such-host.invalid/".into();
    let (text, e) = fails(&c);
    assert!(
        matches!(e, LoadError::Target(TargetError::Dns { .. })),
        "{e:?}"
    );
    assert!(text.contains("cannot resolve"), "{text}");
    c.url = "ftp://example.com/".into();
    let (text, e) = fails(&c);
    assert!(
        matches!(e, LoadError::Target(TargetError::UnsupportedScheme(_))),
        "{e:?}"
    );
    assert!(text.contains("not supported"), "{text}");
}

#[test]
fn a_raised_stop_flag_ends_the_test_and_keeps_what_was_measured() {
    let addr = server(0, Duration::ZERO, Behaviour::Ok);
    let stop = Arc::new(AtomicBool::new(false));
    let s2 = stop.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(800));
        s2.store(true, Ordering::SeqCst);
    });
    let c = cfg(
        addr,
        Pacing::Open {
            rate: 100.0,
            poisson_seed: None,
            max_in_flight: 100,
        },
        30.0,
    );
    let t0 = Instant::now();
    let r = run(&c, stop, None).unwrap();
    assert!(t0.elapsed() < Duration::from_secs(5));
    assert!(r.interrupted && r.ok > 20, "{} ok", r.ok);
}

/// A server that answers 413 as soon as a connection opens, without reading the request,
/// and keeps the connection open: a large POST is still being written when its answer
/// arrives. The connection is out of step and is ended (counted as such), never a panic.
#[test]
fn an_answer_before_the_request_is_all_sent_ends_the_connection_without_a_panic() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for s in listener.incoming() {
            let Ok(mut s) = s else { continue };
            use std::io::Write;
            let _ = s.write_all(b"HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\n\r\n");
            held.push(s);
        }
    });
    let mut c = cfg(
        addr,
        Pacing::Open {
            rate: 20.0,
            poisson_seed: None,
            max_in_flight: 4,
        },
        0.5,
    );
    c.method = "POST".into();
    // Far more than loopback's socket buffers take while nobody reads.
    c.body = vec![b'x'; 64 << 20];
    c.warmup = Duration::ZERO;
    c.timeout = Duration::from_millis(500);
    c.drain = Duration::from_millis(500);
    let r = go(&c);
    assert_eq!(r.ok, 0);
    assert!(
        r.errors.contains_key("an answer to no request"),
        "{:?}",
        r.errors
    );
    assert!(r.examples["an answer to no request"].contains("before the request was all sent"));
}
