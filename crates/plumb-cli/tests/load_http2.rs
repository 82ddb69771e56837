//! `plumb load --http2` end to end against a real nginx (tests/common/nginx.rs): over
//! TLS 1.3 and 1.2 by ALPN, over plain TCP by prior knowledge (h2c), a server that offers
//! only HTTP/1.1 (said, and measured over HTTP/1.1), and a mix with a body — nginx's
//! access log witnessing the protocol each request arrived by and the connection it
//! shared.

mod common;

use common::nginx::Nginx;
use common::{read_doc, Env};

fn load(env: &Env, url: &str, extra: &[&str]) -> common::Run {
    common::nginx::load(env, &[url], "400", "1s", extra)
}

/// nginx's log of a case: (protocol, request's place on its connection).
fn protocols(nginx: &Nginx, case: &str) -> Vec<(String, u64)> {
    nginx
        .access_log(case)
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (f[2].to_string(), f[3].parse().unwrap())
        })
        .collect()
}

#[test]
fn http2_over_tls_multiplexes_the_requests_on_one_connection() {
    let env = Env::new();
    let Some(nginx) = Nginx::start(env.dir.path()) else {
        return;
    };
    let ca = nginx.file("ca.pem");
    for case in ["tls13", "tls12"] {
        let run = load(
            &env,
            &nginx.url(case, "/"),
            &["--cacert", ca.to_str().unwrap(), "--http2"],
        );
        run.assert_code(0);
        assert!(
            run.stdout.starts_with(
                "HTTP/2, up to 100 streams a connection; kept-alive connections, over TLSv1."
            ),
            "{}",
            run.stdout
        );
        assert!(run.stdout.contains("ALPN h2"), "{}", run.stdout);
        let l = read_doc(&env.path("r.json")).benchmarks[0]
            .load()
            .cloned()
            .unwrap();
        assert_eq!((l.ok, l.error_count()), (400, 0), "{case}: {:?}", l.errors);
        let setup = l.setup.unwrap();
        assert_eq!(
            setup.http2, setup.connect.count,
            "every connection spoke HTTP/2"
        );
        let seen = protocols(&nginx, case);
        assert_eq!(seen.len(), 400);
        assert!(
            seen.iter().all(|(p, _)| p == "HTTP/2.0"),
            "{case}: {seen:?}"
        );
        // One connection carried them: nginx numbers its requests up to 400.
        assert_eq!(seen.iter().map(|s| s.1).max(), Some(400), "{case}");
    }
}

#[test]
fn http2_over_plain_tcp_by_prior_knowledge() {
    let env = Env::new();
    let Some(nginx) = Nginx::start(env.dir.path()) else {
        return;
    };
    let run = load(&env, &nginx.url("h2c", "/"), &["--http2", "--streams", "8"]);
    run.assert_code(0);
    assert!(
        run.stdout
            .starts_with("HTTP/2 by prior knowledge (h2c), up to 8 streams a connection"),
        "{}",
        run.stdout
    );
    let seen = protocols(&nginx, "h2c");
    assert_eq!(seen.len(), 400);
    assert!(seen.iter().all(|(p, _)| p == "HTTP/2.0"), "{seen:?}");
}

#[test]
fn a_server_without_http2_is_said_and_measured_over_http_1_1() {
    let env = Env::new();
    let Some(nginx) = Nginx::start(env.dir.path()) else {
        return;
    };
    let ca = nginx.file("ca.pem");
    let run = load(
        &env,
        &nginx.url("h1-only", "/"),
        &["--cacert", ca.to_str().unwrap(), "--http2"],
    );
    run.assert_code(0);
    assert!(
        run.stderr.contains(
            "--http2 asked, but the server offered only http/1.1 by ALPN: measured over HTTP/1.1"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.starts_with(
            "HTTP/2 asked, but the server offered only HTTP/1.1: measured over HTTP/1.1"
        ),
        "{}",
        run.stdout
    );
    let l = read_doc(&env.path("r.json")).benchmarks[0]
        .load()
        .cloned()
        .unwrap();
    assert_eq!(l.ok, 400);
    assert_eq!(l.setup.unwrap().http2, 0);
    assert!(protocols(&nginx, "h1-only")
        .iter()
        .all(|(p, _)| p == "HTTP/1.1"));
}

#[test]
fn a_mix_with_a_body_over_http2() {
    let env = Env::new();
    let Some(nginx) = Nginx::start(env.dir.path()) else {
        return;
    };
    env.write("order.json", "{\"sku\":42,\"qty\":1}");
    let base = nginx.url("tls13", "");
    let file = env.write(
        "targets.txt",
        &format!("GET {base}/a\nweight 3\n\nPOST {base}/orders\nContent-Type: application/json\n@order.json\n"),
    );
    let ca = nginx.file("ca.pem");
    let file = file.to_str().unwrap();
    let ca = ca.to_str().unwrap();
    let run = common::nginx::load(
        &env,
        &["--targets", file],
        "400",
        "1s",
        &["--cacert", ca, "--http2"],
    );
    run.assert_code(0);
    let log = nginx.access_log("tls13");
    assert_eq!(log.len(), 400);
    let posts: Vec<&String> = log.iter().filter(|l| l.starts_with("/orders ")).collect();
    assert!(!posts.is_empty());
    assert!(
        posts
            .iter()
            .all(|l| l.starts_with("/orders 200 HTTP/2.0 ") && l.ends_with(" POST 18 localhost")),
        "{posts:?}"
    );
    let doc = read_doc(&env.path("r.json"));
    assert_eq!(doc.benchmarks.len(), 3);
    assert_eq!(doc.benchmarks[2].load().unwrap().ok, posts.len() as u64);
}
