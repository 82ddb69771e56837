//! Issue 45's "Done when": no secret given in a URL, a header or a store's URL appears in
//! any output, result file, report page, histogram file, manifest or history store. One
//! load test is given every kind at once; every artifact it leaves is read back — the
//! store's kept documents inflated — and searched for each secret. (`--token` of a
//! coordinated test: `load_coordinated.rs`.)
mod common;

use common::{ok_reply, scripted_server, Env, Reply};
use plumb_history::HistoryStore;

const URL_PASSWORD: &str = "Urlpw-5ecret";
const HEADER_SECRETS: [&str; 3] = ["Hdr-5ecret", "Ck-5ecret", "Prx-5ecret"];

/// Every file under `dir` that is text, with its path; the count of them.
fn texts(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            texts(&path, out);
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            out.push((path.display().to_string(), text));
        } else {
            // A binary file (the SQLite store): its bytes as they are, lossily.
            let bytes = std::fs::read(&path).unwrap();
            out.push((
                path.display().to_string(),
                String::from_utf8_lossy(&bytes).into(),
            ));
        }
    }
}

/// Every document a store keeps, as JSON.
fn kept_documents(store: &mut dyn HistoryStore) -> Vec<String> {
    let mut docs = Vec::new();
    for record in store.records().unwrap() {
        for p in record.points {
            docs.push(store.document(p.run).unwrap().to_json());
        }
    }
    docs
}

fn assert_nowhere(secrets: &[&str], place: &str, text: &str) {
    for secret in secrets {
        assert!(!text.contains(secret), "{secret} in {place}:\n{text}");
    }
}

#[test]
fn a_secret_given_in_a_url_a_header_or_a_store_url_is_kept_nowhere() {
    let env = Env::new();
    let addr = scripted_server("127.0.0.1:0", |_, _, _| Reply::Send(ok_reply()));
    // A URL with a password is refused (it is not sent: -H carries credentials), the
    // password never repeated; the test itself runs on the URL without it.
    let with_password = format!("http://user:{URL_PASSWORD}@{addr}/path");
    let url = format!("http://{addr}/path");
    let [hdr, ck, prx] = HEADER_SECRETS;
    let headers = [
        format!("Authorization: Bearer {hdr}"),
        format!("Cookie: session={ck}"),
        format!("Proxy-Authorization: Basic {prx}"),
    ];
    let with_headers = |args: &[&str]| -> Vec<String> {
        let mut all: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        for h in &headers {
            all.extend(["-H".to_string(), h.clone()]);
        }
        all
    };
    let mut said = String::new();
    let mut run = |args: Vec<String>, code: i32| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = env.plumb(&args);
        r.assert_code(code);
        said += &(r.stdout.clone() + &r.stderr);
        r
    };
    run(
        with_headers(&[
            "load",
            &url,
            "--rate",
            "50",
            "--duration",
            "1s",
            "--export-json",
            "r.json",
            "--report",
            "r.html",
            "--hgrm-dir",
            "hgrm",
            "--hlog",
            "r.hlog",
            "--history",
            "h.db",
            "--timeline",
        ]),
        0,
    );
    let refused = run(
        with_headers(&[
            "load",
            &with_password,
            "--rate",
            "10",
            "--duration",
            "1s",
            "--export-json",
            "no.json",
        ]),
        2,
    );
    assert!(refused.stderr.contains("user:***@"), "{}", refused.stderr);
    let k8s = |url: &str, out: &str| -> Vec<String> {
        let mut args: Vec<String> = [
            "load", "deploy", "k8s", "--agents", "2", "--image", "plumb:t", "-o", out, "--", url,
            "--rate", "10",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        for h in &headers {
            args.extend(["-H".to_string(), h.clone()]);
        }
        args
    };
    run(k8s(&url, "k8s.yaml"), 0);
    run(k8s(&with_password, "no.yaml"), 2);
    for args in [
        &[
            "history",
            "--history",
            "h.db",
            "export",
            "--format",
            "json",
            "-o",
            "h.json",
        ][..],
        &["history", "--history", "h.db", "export", "-o", "h.csv"],
        &["report", "--history", "h.db", "-o", "history.html"],
        &["show", "r.json", "--export-markdown", "r.md"],
        &["history", "--history", "h.db", "list"],
    ] {
        run(args.iter().map(|a| a.to_string()).collect(), 0);
    }
    let mut secrets = vec![URL_PASSWORD];
    secrets.extend(HEADER_SECRETS);
    assert_nowhere(&secrets, "what plumb printed", &said);
    let mut files = Vec::new();
    texts(env.dir.path(), &mut files);
    let names: Vec<&str> = (files.iter())
        .map(|(p, _)| p.rsplit('/').next().unwrap())
        .collect();
    for want in [
        "r.json",
        "r.html",
        "latency.hgrm",
        "r.hlog",
        "h.json",
        "h.csv",
        "history.html",
        "r.md",
        "h.db",
        "k8s.yaml",
    ] {
        assert!(names.contains(&want), "{want} not written: {names:?}");
    }
    assert!(
        !names.contains(&"no.json") && !names.contains(&"no.yaml"),
        "{names:?}"
    );
    for (path, text) in &files {
        assert_nowhere(&secrets, path, text);
    }
    let mut store = plumb_history::SqliteStore::open(&env.path("h.db")).unwrap();
    let docs = kept_documents(&mut store);
    assert!(!docs.is_empty());
    for doc in &docs {
        assert_nowhere(&secrets, "the SQLite store's document", doc);
        // What was asked stays readable: the header's name, its value hidden.
        assert!(doc.contains("Authorization: ***"), "{doc}");
    }
    postgres_store(&env, &url, &secrets);
}

/// A PostgreSQL store named by a URL with its password: not in the output, the result
/// file, nor the document the store keeps (whose command line holds the URL).
#[cfg(feature = "postgres")]
fn postgres_store(env: &Env, url: &str, secrets: &[&str]) {
    let Some(db) = common::postgres::database() else {
        return;
    };
    let password = db
        .url
        .split_once("://")
        .and_then(|(_, rest)| rest.split_once('@'))
        .and_then(|(user, _)| user.split_once(':'))
        .map(|(_, pw)| pw.to_string())
        .expect("PLUMB_TEST_POSTGRES must carry a password for this test");
    let r = env.plumb(&[
        "load",
        url,
        "--rate",
        "20",
        "--duration",
        "1s",
        "--history",
        &db.url,
        "--export-json",
        "pg.json",
    ]);
    r.assert_code(0);
    let mut all: Vec<&str> = secrets.to_vec();
    all.push(&password);
    assert_nowhere(&all, "what plumb printed", &(r.stdout + &r.stderr));
    assert_nowhere(
        &all,
        "pg.json",
        &std::fs::read_to_string(env.path("pg.json")).unwrap(),
    );
    let mut store = plumb_history::PostgresStore::open(&db.url).unwrap();
    for doc in kept_documents(&mut store) {
        assert_nowhere(&all, "the PostgreSQL store's document", &doc);
    }
}

#[cfg(not(feature = "postgres"))]
fn postgres_store(_: &Env, _: &str, _: &[&str]) {
    plumb_testkit::skip("PostgreSQL: plumb-cli built without its postgres feature");
}
