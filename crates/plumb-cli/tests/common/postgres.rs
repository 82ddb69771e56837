//! A database of its own on the real PostgreSQL server for each test, dropped afterwards.
//! The server is `PLUMB_TEST_POSTGRES` (a URL whose role may create databases; .ci/run
//! installs and starts one and sets it). Without it the test is skipped here and fails
//! under CI=true.
use std::sync::atomic::{AtomicU64, Ordering};

pub struct Database {
    admin: String,
    pub name: String,
    /// The test database's URL, password and all.
    pub url: String,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// A fresh database, or None (having said why) where no server is given.
pub fn database() -> Option<Database> {
    let Ok(admin) = std::env::var("PLUMB_TEST_POSTGRES") else {
        plumb_testkit::skip("PostgreSQL: PLUMB_TEST_POSTGRES is not set (.ci/run sets it)");
        return None;
    };
    let name = format!(
        "plumb_t_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let mut client = postgres::Client::connect(&admin, postgres::NoTls)
        .unwrap_or_else(|e| panic!("PLUMB_TEST_POSTGRES: cannot connect: {e}"));
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .expect("a test database");
    let (base, query) = match admin.split_once('?') {
        Some((b, q)) => (b.to_string(), format!("?{q}")),
        None => (admin.clone(), String::new()),
    };
    let server = base.rsplit_once('/').map_or(base.as_str(), |(s, _)| s);
    let url = format!("{server}/{name}{query}");
    Some(Database { admin, name, url })
}

impl Database {
    /// The URL with this query instead of the admin URL's.
    pub fn url_with(&self, query: &str) -> String {
        let base = self
            .url
            .split_once('?')
            .map_or(self.url.as_str(), |(b, _)| b);
        format!("{base}?{query}")
    }

    /// SQL run as the admin role in this database.
    pub fn execute(&self, sql: &str) {
        let mut c = postgres::Client::connect(&self.url, postgres::NoTls).expect("connect");
        c.batch_execute(sql).expect("sql runs");
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        if let Ok(mut c) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let _ = c.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}
