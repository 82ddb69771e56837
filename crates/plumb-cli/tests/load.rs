//! `plumb load` end to end against a stalling HTTP server started here (threads,
//! blocking sockets): every 100th request freezes the server for 100 ms.

mod common;

use common::{read_doc, Env};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn stalling_server(every: u64, stall: Duration) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let count = Arc::new(AtomicU64::new(0));
    let stalled_until = Arc::new(Mutex::new(Instant::now()));
    std::thread::spawn(move || {
        for sock in listener.incoming() {
            let Ok(mut sock) = sock else { continue };
            let (count, stalled_until) = (count.clone(), stalled_until.clone());
            std::thread::spawn(move || {
                let _ = sock.set_nodelay(true);
                let mut buf = Vec::new();
                let mut chunk = [0u8; 2048];
                loop {
                    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                        match sock.read(&mut chunk) {
                            Ok(0) | Err(_) => return,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                    }
                    let end = buf.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
                    buf.drain(..end);
                    let n = count.fetch_add(1, Ordering::SeqCst) + 1;
                    let until = {
                        let mut u = stalled_until.lock().unwrap();
                        if n % every == 0 {
                            *u = Instant::now() + stall;
                        }
                        *u
                    };
                    let now = Instant::now();
                    if until > now {
                        std::thread::sleep(until - now);
                    }
                    if sock
                        .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                        .is_err()
                    {
                        return;
                    }
                }
            });
        }
    });
    port
}

#[test]
fn open_loop_p99_shows_the_stall_that_the_closed_loop_hides() {
    let env = Env::new();
    // 100 req/s, a 100 ms stall every 100 requests (once a second): the 10 requests due
    // during each stall wait 100 ms down to 10 ms: 10 % of requests, so p99 is 90–100 ms.
    let port = stalling_server(100, Duration::from_millis(100));
    let url = format!("http://127.0.0.1:{port}/");
    let json = env.path("open.json");
    let run = env.plumb(&[
        "load",
        &url,
        "--rate",
        "100",
        "--duration",
        "4s",
        "--warmup",
        "0.5s",
        "--export-json",
        json.to_str().unwrap(),
    ]);
    run.assert_code(0);
    assert!(
        run.stdout
            .contains("latency is measured from each request's due time"),
        "{}",
        run.stdout
    );
    let l = read_doc(&json).benchmarks[0].load.clone().unwrap();
    let p99 = l.latency.percentiles_us["p99"] / 1e3;
    assert!(
        (80.0..130.0).contains(&p99),
        "open p99 {p99} ms\n{}",
        run.stdout
    );
    assert!(l.send_lateness.unwrap().percentiles_us["p99"] < 5_000.0);
    assert!(!l.latency.hdr_base64.is_empty());

    let port = stalling_server(100, Duration::from_millis(100));
    let url = format!("http://127.0.0.1:{port}/");
    let json = env.path("closed.json");
    let run = env.plumb(&[
        "load",
        &url,
        "--closed",
        "1",
        "--duration",
        "2s",
        "--warmup",
        "0s",
        "--export-json",
        json.to_str().unwrap(),
    ]);
    run.assert_code(0);
    assert!(run.stdout.contains("NOT what users wait"), "{}", run.stdout);
    let l = read_doc(&json).benchmarks[0].load.clone().unwrap();
    let p99 = l.latency.percentiles_us["p99"] / 1e3;
    assert!(p99 < 20.0, "closed p99 {p99} ms hides the stalls");
}

#[test]
fn bad_targets_and_options_fail_clearly() {
    let env = Env::new();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let run = env.plumb(&[
        "load",
        &format!("http://127.0.0.1:{port}/"),
        "--rate",
        "10",
        "--duration",
        "1s",
    ]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("cannot reach") && run.stderr.contains("refused"),
        "{}",
        run.stderr
    );
    let run = env.plumb(&["load", "http://x/", "--rate", "0"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("the rate must be above 0"),
        "{}",
        run.stderr
    );
    let run = env.plumb(&["load", "http://x/"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--rate"), "{}", run.stderr);
    let run = env.plumb(&["load", "ftp://x/", "--rate", "1"]);
    run.assert_code(2);
    assert!(run.stderr.contains("not supported"), "{}", run.stderr);
    let run = env.plumb(&["load", "http://x/", "--rate", "1", "-H", "nocolon"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("is not 'Name: value'"),
        "{}",
        run.stderr
    );
}
