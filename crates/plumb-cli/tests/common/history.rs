//! What the history tests share: result files with known levels and noise, written as
//! plumb writes them, a history with a step in it, and the store seen and held from
//! outside plumb (Python's sqlite3), and a writer killed mid-batch.
use super::Env;
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{Benchmark, BenchmarkKind, Environment, Invocation, ProducerSettings};
use plumb_model::{ResultDocument, Settings};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// A plumb result of `name` with 20 runs around `ns` (±2 % between results, ±0.5 % within).
pub fn result(env: &Env, file: &str, name: &str, ns: f64, seed: u64) -> PathBuf {
    let level = ns * (1.0 + 0.02 * plumb_testkit::noise(seed, 0));
    result_at(env, file, name, level, seed)
}

/// A plumb result of `name` with 20 runs around exactly `level` ns (±0.5 % within).
pub fn result_at(env: &Env, file: &str, name: &str, level: f64, seed: u64) -> PathBuf {
    let settings = Settings {
        confidence: Confidence::DEFAULT,
        sesoi: Fraction::DEFAULT_SESOI,
        question: Default::default(),
        producer: ProducerSettings::None,
    };
    let machine = Environment {
        cpu_model: Some("Test CPU".into()),
        cores: Some(2),
        ..Environment::default()
    };
    let mut doc = ResultDocument::new("0.0.0-test", Invocation::current(), machine, settings);
    let times = (1..=20).map(|i| (level * (1.0 + 0.005 * plumb_testkit::noise(seed, i))) as u64);
    doc.benchmarks.push(Benchmark::of_wall_times(
        name,
        BenchmarkKind::Command,
        times,
    ));
    let path = env.path(file);
    std::fs::write(&path, doc.to_json()).unwrap();
    path
}

/// Adds 30 results of `name` at commits c1..c30: 1 ms, then `after` ns from c25 on.
pub fn history_with_step(env: &Env, name: &str, after: f64, store: &[&str]) {
    for i in 1..=30u64 {
        let ns = if i >= 25 { after } else { 1e6 };
        let f = result(env, &format!("r{i}.json"), name, ns, i);
        let commit = format!("c{i:02}");
        let mut args = vec!["history", "add", f.to_str().unwrap(), "--commit", &commit];
        args.extend_from_slice(store);
        env.plumb(&args).assert_code(0);
    }
}

/// Python's sqlite3 on the store at `db` (not plumb's SQLite): runs `script` with `c` the
/// connection, the statements committed; what it prints.
fn python_sqlite(db: &Path, script: &str) -> String {
    let program =
        format!("import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); {script}; c.commit()");
    let out = Command::new("python3")
        .args(["-c", &program])
        .arg(db)
        // An argument a message must not repeat (a holder's command line may carry one).
        .args(["--token", "SECRET-T0K"])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// `sql`'s one value from the SQLite store at `db`.
pub fn sqlite_value(db: &Path, sql: &str) -> String {
    python_sqlite(db, &format!("print(c.execute({sql:?}).fetchone()[0])"))
}

/// Runs `sql` on the SQLite store at `db`.
pub fn sqlite_exec(db: &Path, sql: &str) {
    python_sqlite(db, &format!("c.execute({sql:?})"));
}

/// Another process holding the write lock of the SQLite store at `db` for `seconds`,
/// returned once it holds it.
pub fn hold_lock(db: &Path, seconds: u32) -> Child {
    let program = format!("import sqlite3,sys,time; c=sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep({seconds})");
    let mut holder = Command::new("python3")
        .args(["-c", &program])
        .arg(db)
        // An argument a message must not repeat (a holder's command line may carry one).
        .args(["--token", "SECRET-T0K"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(holder.stdout.as_mut().unwrap()),
        &mut line,
    )
    .unwrap();
    assert_eq!(line.trim(), "locked");
    holder
}

/// SIGKILL to `child` (a `plumb history add` with its standard error piped) once it has
/// said `after` results kept: the next write is under way.
pub fn kill_after_kept(child: &mut Child, after: usize) {
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.stderr.take().unwrap()));
    let mut kept = 0;
    while kept < after {
        match lines.next() {
            Some(Ok(l)) if l.contains("kept as run") => kept += 1,
            Some(Ok(_)) => {}
            _ => break,
        }
    }
    Command::new("kill")
        .args(["-KILL", &child.id().to_string()])
        .status()
        .unwrap();
    let _ = child.wait();
}
