//! `plumb load --targets FILE` end to end against a real nginx (tests/common/nginx.rs):
//! the mix's shares read back from nginx's access log, bodies sent, each target reported
//! apart and the whole together, a seed that repeats its draws, a mix across two hosts
//! (https and http, a pool each), and every bad targets file refused with its line.

mod common;

use common::nginx::Nginx;
use common::{read_doc, Env};
use plumb_model::ProducerSettings;

fn mix_load(env: &Env, file: &str, extra: &[&str]) -> common::Run {
    common::nginx::load(env, &["--targets", file], "1000", "2s", extra)
}

/// Requests per path in nginx's log of `case`.
fn per_path(nginx: &Nginx, case: &str) -> std::collections::BTreeMap<String, u64> {
    let mut out = std::collections::BTreeMap::new();
    for line in nginx.access_log(case) {
        let path = line.split(' ').next().unwrap().to_string();
        *out.entry(path).or_insert(0) += 1;
    }
    out
}

#[test]
fn a_weighted_mix_reaches_the_server_in_its_shares_and_is_reported_per_target() {
    let env = Env::new();
    let Some(nginx) = Nginx::start(env.dir.path()) else {
        return;
    };
    env.write("order.json", "{\"sku\":42,\"qty\":1}");
    let base = nginx.url("tls13", "");
    let file = env.write(
        "targets.txt",
        &format!(
            "# a shop\nGET {base}/products\nweight 7\n\nGET {base}/cart\nweight 2\n\nPOST {base}/orders\nContent-Type: application/json\nweight 1\n@order.json\n"
        ),
    );
    let ca = nginx.file("ca.pem");
    let run = mix_load(
        &env,
        file.to_str().unwrap(),
        &["--cacert", ca.to_str().unwrap()],
    );
    run.assert_code(0);
    assert!(run.stdout.contains("mix of 3 targets"), "{}", run.stdout);
    assert!(
        run.stdout.contains("target "),
        "the per-target table: {}",
        run.stdout
    );

    // nginx saw 2000 requests in 7:2:1 (binomial: 5 standard deviations), each POST
    // with its body's length.
    let seen = per_path(&nginx, "tls13");
    assert_eq!(seen.values().sum::<u64>(), 2000, "{seen:?}");
    for (path, share) in [("/products", 0.7), ("/cart", 0.2), ("/orders", 0.1)] {
        let expected = 2000.0 * share;
        let sd = (2000.0_f64 * share * (1.0 - share)).sqrt();
        let got = seen[path] as f64;
        assert!(
            (got - expected).abs() < 5.0 * sd,
            "{path}: {got} of 2000: {seen:?}"
        );
    }
    let posts: Vec<String> = nginx
        .access_log("tls13")
        .into_iter()
        .filter(|l| l.starts_with("/orders "))
        .collect();
    assert!(
        posts.iter().all(|l| l.ends_with(" POST 18 localhost")),
        "{posts:?}"
    );

    // The result: the whole first, then each target with its own counts; they add up,
    // and each target's count is what nginx logged for its path.
    let doc = read_doc(&env.path("r.json"));
    let names: Vec<&str> = doc.benchmarks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names.len(), 4, "{names:?}");
    assert!(names[0].starts_with("mix of 3 targets"));
    assert_eq!(names[3], format!("POST {base}/orders"));
    let whole = doc.benchmarks[0].load().unwrap();
    let parts: Vec<&plumb_model::LoadInfo> = doc.benchmarks[1..]
        .iter()
        .map(|b| b.load().unwrap())
        .collect();
    assert_eq!(parts.iter().map(|l| l.ok).sum::<u64>(), whole.ok);
    assert_eq!(
        parts.iter().map(|l| l.latency.count).sum::<u64>(),
        whole.latency.count
    );
    for (b, path) in doc.benchmarks[1..]
        .iter()
        .zip(["/products", "/cart", "/orders"])
    {
        assert_eq!(b.load().unwrap().ok, seen[path], "{}", b.name);
    }
    let ProducerSettings::Load(s) = &doc.settings.producer else {
        panic!("a load result")
    };
    let mix = s.mix.as_ref().unwrap();
    assert_eq!(
        mix.targets.iter().map(|t| t.weight).collect::<Vec<_>>(),
        [7, 2, 1]
    );
}

#[test]
fn the_same_seed_draws_the_same_sequence_and_another_seed_another() {
    let env = Env::new();
    let Some(nginx) = Nginx::start(env.dir.path()) else {
        return;
    };
    let base = nginx.url("plain", "");
    let file = env.write(
        "targets.txt",
        &format!("GET {base}/a\n\nGET {base}/b\n\nGET {base}/c\nweight 2\n"),
    );
    let counts = |seed: &str| {
        mix_load(&env, file.to_str().unwrap(), &["--seed", seed]).assert_code(0);
        let doc = read_doc(&env.path("r.json"));
        doc.benchmarks[1..]
            .iter()
            .map(|b| b.load().unwrap().due)
            .collect::<Vec<u64>>()
    };
    let first = counts("11");
    assert_eq!(first.iter().sum::<u64>(), 2000);
    assert_eq!(counts("11"), first, "the same seed, the same draws");
    assert_ne!(counts("12"), first, "another seed, other draws");
}

#[test]
fn a_mix_across_hosts_keeps_a_pool_per_host() {
    let env = Env::new();
    let Some(nginx) = Nginx::start(env.dir.path()) else {
        return;
    };
    let file = env.write(
        "targets.txt",
        &format!(
            "GET {}\n\nGET {}\n",
            nginx.url("tls12", "/secure"),
            nginx.url("plain", "/open")
        ),
    );
    let ca = nginx.file("ca.pem");
    mix_load(
        &env,
        file.to_str().unwrap(),
        &["--cacert", ca.to_str().unwrap()],
    )
    .assert_code(0);
    let doc = read_doc(&env.path("r.json"));
    let whole = doc.benchmarks[0].load().unwrap();
    assert!(whole.connections_opened >= 2, "a connection to each host");
    let (secure, open) = (per_path(&nginx, "tls12"), per_path(&nginx, "plain"));
    assert_eq!(secure.keys().collect::<Vec<_>>(), ["/secure"]);
    assert_eq!(open.keys().collect::<Vec<_>>(), ["/open"]);
    assert_eq!(secure["/secure"] + open["/open"], 2000);
    // The https host's handshakes are timed; the TLS record is the https host's.
    assert!(whole.setup.as_ref().unwrap().handshake.is_some());
}

#[test]
fn bad_targets_files_are_refused_with_their_line_and_nothing_is_sent() {
    let env = Env::new();
    let Some(nginx) = Nginx::start(env.dir.path()) else {
        return;
    };
    let url = nginx.url("plain", "/");
    for (text, words) in [
        (format!("GET {url}\nweight 0\n"), "line 2: weight 0"),
        (format!("GET {url}\nweight -3\n"), "line 2: weight -3"),
        // Issue 45, defect 35: two weights for one target.
        (
            format!("GET {url}\nweight 2\nweight 5\n"),
            "line 3: a second weight for the target on line 1",
        ),
        (
            format!("GET {url}\n\nPOST {url}\n@nowhere.json\n"),
            "line 3: cannot read the body file",
        ),
        (format!("GET {url}\nGET {url}\n"), "line 2:"),
        ("# nothing\n\n".to_string(), "holds no target"),
        (format!("get {url}\n"), "line 1:"),
        ("GET ftp://x/\n".to_string(), "line 1:"),
    ] {
        let file = env.write("bad.txt", &text);
        let run = mix_load(&env, file.to_str().unwrap(), &[]);
        run.assert_code(2);
        assert!(run.stderr.contains("bad.txt"), "{text}: {}", run.stderr);
        assert!(run.stderr.contains(words), "{text}: {}", run.stderr);
    }
    assert!(nginx.access_log("plain").is_empty(), "nothing was sent");
    let run = mix_load(&env, env.path("absent.txt").to_str().unwrap(), &[]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("cannot read the targets file"),
        "{}",
        run.stderr
    );
    // A URL with --targets is refused by the parser.
    env.plumb(&["load", &url, "--targets", "x.txt", "--rate", "1"])
        .assert_code(2);
}
