//! End to end: `plumb history` against a real PostgreSQL server (the one .ci/run installs
//! and starts; `PLUMB_TEST_POSTGRES` names it) — the same behaviour as SQLite's, the
//! password never shown and taken from the environment, TLS as sslmode asks, a wrong URL
//! and a newer schema said in one line.
mod common;

use common::history::{history_with_step, result};
use common::postgres::database;
use common::Env;

/// The password in a URL, or None.
fn password_of(url: &str) -> Option<String> {
    let auth = url.split_once("://")?.1.rsplit_once('@')?.0;
    Some(auth.split_once(':')?.1.to_string())
}

/// `url` without its password (the role's password must then come from elsewhere).
fn without_password(url: &str) -> String {
    match password_of(url) {
        Some(p) => url.replacen(&format!(":{p}@"), "@", 1),
        None => url.to_string(),
    }
}

#[test]
fn a_step_is_found_and_gated_in_postgres_as_in_sqlite() {
    let Some(db) = database() else { return };
    let env = Env::new();
    history_with_step(&env, "parse", 1.1e6, &["--history", &db.url]);
    let list = env.plumb(&["history", "list", "--history", &db.url]);
    list.assert_code(0);
    assert!(
        list.stdout.contains("parse · wall-time") && list.stdout.contains("c01..c30"),
        "{}",
        list.stdout
    );
    let changes = env.plumb(&[
        "history",
        "changes",
        "--fail-on",
        "new-change",
        "--history",
        &db.url,
    ]);
    changes.assert_code(1);
    let line = changes
        .stdout
        .lines()
        .find(|l| l.contains("c24..c25"))
        .expect("a change at c25");
    assert!(line.contains("candidate, new"), "{line}");
    let id = line.split_whitespace().next().unwrap();
    env.plumb(&["history", "ack", id, "--history", &db.url])
        .assert_code(0);
    let again = env.plumb(&[
        "history",
        "changes",
        "--fail-on",
        "new-change",
        "--history",
        &db.url,
    ]);
    again.assert_code(0);
    assert!(again.stdout.contains("acknowledged"), "{}", again.stdout);
    // Nothing said anywhere shows the password.
    if let Some(pw) = password_of(&db.url) {
        for out in [&list, &changes, &again] {
            assert!(!out.stdout.contains(&pw) && !out.stderr.contains(&pw));
        }
    }
}

#[test]
fn a_benchmark_named_like_sql_is_kept_as_a_name_in_postgres() {
    let Some(db) = database() else { return };
    let env = Env::new();
    let evil = "x'); DROP TABLE points; --";
    for i in 1..=2 {
        let f = result(&env, &format!("r{i}.json"), evil, 1e6, i);
        let r = env.plumb(&[
            "history",
            "add",
            f.to_str().unwrap(),
            "--commit",
            &format!("c{i}"),
            "--history",
            &db.url,
        ]);
        r.assert_code(0);
    }
    let list = env.plumb(&["history", "list", "--history", &db.url]);
    assert!(
        list.stdout.contains(&format!("{evil} · wall-time")),
        "{}",
        list.stdout
    );
}

#[test]
fn the_password_comes_from_the_environment_and_is_never_printed() {
    let Some(db) = database() else { return };
    let Some(pw) = password_of(&db.url) else {
        panic!("PLUMB_TEST_POSTGRES must carry a password for this test");
    };
    let env = Env::new();
    let f = result(&env, "r.json", "b", 1e6, 1);
    let bare = without_password(&db.url);
    // PGPASSWORD.
    let out = env
        .command(&[
            "history",
            "add",
            f.to_str().unwrap(),
            "--commit",
            "c1",
            "--history",
            &bare,
        ])
        .env("PGPASSWORD", &pw)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A .pgpass file.
    let pgpass = env.write("pgpass", &format!("*:*:*:*:{pw}\n"));
    let out = env
        .command(&["history", "list", "--history", &bare])
        .env_remove("PGPASSWORD")
        .env("PGPASSFILE", &pgpass)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("b · wall-time"));
    // The store named by PLUMB_HISTORY, as a CI secret would give it.
    let out = env
        .command(&["history", "list"])
        .env("PLUMB_HISTORY", &db.url)
        .output()
        .unwrap();
    assert!(out.status.success());
    // A wrong password: refused, in one line, without the password tried.
    let wrong = db
        .url
        .replacen(&format!(":{pw}@"), ":not-the-password-42@", 1);
    let r = env.plumb(&["history", "list", "--history", &wrong]);
    r.assert_code(2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        !r.stderr.contains("not-the-password-42") && r.stderr.contains(":***@"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("password authentication failed"),
        "{}",
        r.stderr
    );
    // --help does not show PLUMB_HISTORY's value.
    let out = env
        .command(&["history", "--help"])
        .env("PLUMB_HISTORY", &db.url)
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains(&pw));
}

#[test]
fn tls_is_used_as_sslmode_asks() {
    let Some(db) = database() else { return };
    let env = Env::new();
    let f = result(&env, "r.json", "b", 1e6, 1);
    let file = f.to_str().unwrap();
    // require: encrypted (the server's own view of this session says so).
    let require = db.url_with("sslmode=require");
    env.plumb(&[
        "history",
        "add",
        file,
        "--commit",
        "c1",
        "--history",
        &require,
    ])
    .assert_code(0);
    // verify-full against the server's certificate as the root, at the name it carries.
    let cert = "/etc/ssl/certs/ssl-cert-snakeoil.pem";
    if std::path::Path::new(cert).exists() {
        let full = db
            .url_with(&format!("sslmode=verify-full&sslrootcert={cert}"))
            .replace("@127.0.0.1", "@localhost");
        env.plumb(&["history", "list", "--history", &full])
            .assert_code(0);
        // At an address the certificate does not name, verify-full refuses and verify-ca
        // (the chain only) accepts.
        let by_ip = db
            .url_with(&format!("sslmode=verify-full&sslrootcert={cert}"))
            .replace("@localhost", "@127.0.0.1");
        let r = env.plumb(&["history", "list", "--history", &by_ip]);
        r.assert_code(2);
        assert!(r.stderr.contains("cannot connect"), "{}", r.stderr);
        let ca = by_ip.replace("verify-full", "verify-ca");
        env.plumb(&["history", "list", "--history", &ca])
            .assert_code(0);
    } else {
        plumb_testkit::skip(
            "PostgreSQL TLS: no /etc/ssl/certs/ssl-cert-snakeoil.pem (Debian's server certificate)",
        );
    }
    // disable: plain.
    env.plumb(&[
        "history",
        "list",
        "--history",
        &db.url_with("sslmode=disable"),
    ])
    .assert_code(0);
    let r = env.plumb(&[
        "history",
        "list",
        "--history",
        &db.url_with("sslmode=sometimes"),
    ]);
    r.assert_code(2);
    assert!(
        r.stderr.contains("sslmode=sometimes is not one of"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_wrong_url_and_a_newer_schema_are_one_line_and_exit_2() {
    let Some(db) = database() else { return };
    let env = Env::new();
    // No server on that port.
    let nowhere = "postgres://plumb:secret-77@127.0.0.1:1/none";
    let r = env.plumb(&["history", "list", "--history", nowhere]);
    r.assert_code(2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("cannot connect") && !r.stderr.contains("secret-77"),
        "{}",
        r.stderr
    );
    // An '@' in the password: refused before connecting, the password not shown.
    let r = env.plumb(&[
        "history",
        "list",
        "--history",
        "postgres://plumb:x@PW-88@127.0.0.1:1/none",
    ]);
    r.assert_code(2);
    assert!(
        r.stderr.contains("write it %40") && !r.stderr.contains("PW-88"),
        "{}",
        r.stderr
    );
    // A database that does not exist.
    let missing = db.url.replace(&db.name, "plumb_no_such_db");
    let r = env.plumb(&["history", "list", "--history", &missing]);
    r.assert_code(2);
    assert!(r.stderr.contains("does not exist"), "{}", r.stderr);
    // A store of a newer plumb.
    env.plumb(&["history", "list", "--history", &db.url])
        .assert_code(0);
    db.execute("UPDATE plumb_schema SET version = 99");
    let r = env.plumb(&["history", "list", "--history", &db.url]);
    r.assert_code(2);
    assert!(
        r.stderr
            .contains("schema version 99, newer than this plumb's"),
        "{}",
        r.stderr
    );
}

/// A session that keeps the store locked: plumb waits its bound, then says which sessions
/// were in a transaction, in one line.
#[test]
fn a_locked_postgres_store_says_who_holds_it() {
    let Some(db) = database() else { return };
    let env = Env::new();
    let f = result(&env, "r.json", "b", 1e6, 1);
    let file = f.to_str().unwrap();
    env.plumb(&[
        "history",
        "add",
        file,
        "--commit",
        "c1",
        "--history",
        &db.url,
    ])
    .assert_code(0);
    let mut holder = postgres::Client::connect(&db.url, postgres::NoTls).unwrap();
    let mut tx = holder.transaction().unwrap();
    tx.batch_execute("LOCK TABLE runs IN ACCESS EXCLUSIVE MODE")
        .unwrap();
    let start = std::time::Instant::now();
    let out = env
        .command(&[
            "history",
            "add",
            file,
            "--commit",
            "c2",
            "--history",
            &db.url,
        ])
        .env("PLUMB_HISTORY_LOCK_WAIT", "1")
        .output()
        .unwrap();
    let took = start.elapsed();
    tx.rollback().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("still locked after waiting 1.000 s by server pid "),
        "{stderr}"
    );
    assert!(stderr.contains("in a transaction since"), "{stderr}");
    assert!(took < std::time::Duration::from_secs(8), "{took:?}");
    // Unlocked, the same write goes through.
    env.plumb(&[
        "history",
        "add",
        file,
        "--commit",
        "c2",
        "--history",
        &db.url,
    ])
    .assert_code(0);
}

/// What SQLite's tests check of the other commands, on PostgreSQL: run --save, show,
/// export, report --history, and compare measuring the noise between runs.
#[test]
fn every_command_reads_and_writes_postgres() {
    let Some(db) = database() else { return };
    let env = Env::new();
    let url = db.url.as_str();
    history_with_step(&env, "parse", 1.1e6, &["--history", url]);
    env.plumb(&["history", "changes", "--history", url])
        .assert_code(0);
    let show = env.plumb(&["history", "show", "parse", "--history", url]);
    show.assert_code(0);
    assert!(
        show.stdout.contains("← change: candidate"),
        "{}",
        show.stdout
    );
    let csv = env.plumb(&["history", "export", "--history", url]);
    assert_eq!(csv.stdout.lines().count(), 31);
    let r = env.plumb(&["report", "--history", url, "-o", "h.html"]);
    r.assert_code(0);
    let html = std::fs::read_to_string(env.path("h.html")).unwrap();
    assert!(html.contains(">c24..c25 +10."), "no change label");
    if let Some(pw) = password_of(url) {
        assert!(!html.contains(&pw), "the page shows the password");
    }
    let a = common::history::result_at(&env, "a.json", "parse", 1.1e6, 1001);
    let b = common::history::result_at(&env, "b.json", "parse", 1.13e6, 1002);
    let cmp = env.plumb(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--history",
        url,
    ]);
    assert!(
        cmp.stdout
            .contains("parse: separate runs; between runs its mean moves by"),
        "{}",
        cmp.stdout
    );
    let run = env.plumb(&[
        "run",
        "--debug-fake-runs",
        "--runs",
        "3",
        "--warmup",
        "0",
        "--no-progress",
        "fast 2ms",
        "--history",
        url,
    ]);
    run.assert_code(0);
    assert!(
        run.stderr.contains("kept as run 31 in postgres"),
        "{}",
        run.stderr
    );
}

/// A writer killed mid-batch leaves every result whole or absent.
#[test]
fn a_writer_killed_mid_write_leaves_postgres_whole() {
    let Some(db) = database() else { return };
    let env = Env::new();
    let files: Vec<String> = (1..=40u64)
        .map(|i| {
            result(&env, &format!("r{i}.json"), "b", 1e6, i)
                .to_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let mut args = vec![
        "history",
        "add",
        "--commit",
        "c1",
        "--history",
        db.url.as_str(),
    ];
    args.extend(files.iter().map(String::as_str));
    let mut child = env
        .command(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    common::history::kill_after_kept(&mut child, 10);
    let mut c = postgres::Client::connect(&db.url, postgres::NoTls).unwrap();
    let runs: i64 = c
        .query_one("SELECT COUNT(*) FROM runs", &[])
        .unwrap()
        .get(0);
    let torn: i64 = c
        .query_one(
            "SELECT COUNT(*) FROM runs WHERE id NOT IN (SELECT run FROM points)",
            &[],
        )
        .unwrap()
        .get(0);
    assert!((10..40).contains(&runs), "{runs} runs kept");
    assert_eq!(torn, 0, "a run without its point");
    env.plumb(&["history", "list", "--history", &db.url])
        .assert_code(0);
}

/// Schema 2 in PostgreSQL: a change's re-run is kept whole beside it and read back.
#[test]
fn a_confirmation_is_kept_in_postgres_beside_its_change() {
    let Some(db) = database() else { return };
    let env = Env::new();
    let f = result(&env, "r.json", "parse", 1e6, 1);
    let path = f.to_str().unwrap();
    env.plumb(&[
        "history",
        "add",
        path,
        "--commit",
        "c01",
        "--history",
        &db.url,
    ])
    .assert_code(0);
    let mut store = plumb_history::Location::parse(&db.url).open().unwrap();
    let series = store.series().unwrap()[0].id;
    let run = store.points(series).unwrap()[0].run;
    let kept = plumb_history::Confirmation {
        series,
        run,
        recorded: plumb_model::quantity::Timestamp::from_unix_nanos(7_000_000_000),
        base_sha: "a".repeat(40),
        new_sha: "b".repeat(40),
        verdict: "confirmed".into(),
        culprit: Some("c".repeat(40)),
        document: common::read_doc(&f),
    };
    store.keep_confirmation(&kept).unwrap();
    assert_eq!(store.confirmations(series, run).unwrap(), [kept]);
    assert!(store.confirmations(series, run + 1).unwrap().is_empty());
}

/// Issue 45, defect 11: a server that accepts and never answers is given up on within
/// the connect wait, said, exit 2 — not waited on for ever. (No PostgreSQL needed: the
/// silent server is a listener that reads nothing.)
#[test]
fn a_server_that_never_answers_is_given_up_on() {
    let env = Env::new();
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("postgres://plumb@{}/h", silent.local_addr().unwrap());
    let start = std::time::Instant::now();
    let out = env
        .command(&["history", "list", "--history", &url])
        .env("PLUMB_HISTORY_CONNECT_WAIT", "1")
        .output()
        .unwrap();
    let took = start.elapsed();
    let r = common::Run::of(out);
    r.assert_code(2);
    assert!(
        r.stderr.contains("did not answer within 1.000 s"),
        "{}",
        r.stderr
    );
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    drop(silent);
}
