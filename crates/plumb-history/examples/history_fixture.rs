//! A history store for `bench/history.sh` to time: SERIES benchmarks measured at POINTS
//! commits (20 runs each, ±2 % between results, ±0.5 % within; every tenth benchmark 5 %
//! slower from the middle on), kept through the store's own `add`, and the next five results
//! written as JSON (NEXT-1.json … NEXT-5.json) for timing `plumb history add`.
//!
//! Run: `cargo run --release -p plumb-history --example history_fixture STORE SERIES POINTS NEXT`
use plumb_history::{Commit, HistoryStore, SqliteStore};
use plumb_model::quantity::{Confidence, Fraction, Timestamp};
use plumb_model::{Benchmark, BenchmarkKind, Environment, Invocation};
use plumb_model::{ProducerSettings, ResultDocument, Settings};

fn result(series: u64, point: u64, points: u64) -> ResultDocument {
    let settings = Settings {
        confidence: Confidence::DEFAULT,
        sesoi: Fraction::DEFAULT_SESOI,
        question: Default::default(),
        producer: ProducerSettings::None,
    };
    let machine = Environment {
        cpu_model: Some("Bench CPU".into()),
        ..Environment::default()
    };
    let mut doc = ResultDocument::new("0.0.0-bench", Invocation::current(), machine, settings);
    for b in 0..series {
        let step = if b % 10 == 0 && point >= points / 2 {
            1.05
        } else {
            1.0
        };
        let level =
            1e6 * (1.0 + b as f64 * 0.01) * step * (1.0 + 0.02 * plumb_testkit::noise(b, point));
        let times = (0..20)
            .map(|i| (level * (1.0 + 0.005 * plumb_testkit::noise(point * 1000 + b, i))) as u64);
        let bench =
            Benchmark::of_wall_times(format!("bench-{b:03}"), BenchmarkKind::Command, times);
        doc.benchmarks.push(bench);
    }
    let _ = plumb_analysis::complete_statistics(&mut doc);
    doc
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, store, series, points, next] = &args[..] else {
        panic!("usage: history_fixture STORE SERIES POINTS NEXT");
    };
    let (series, points): (u64, u64) = (series.parse().unwrap(), points.parse().unwrap());
    let _ = std::fs::remove_file(store);
    let mut db = SqliteStore::open(std::path::Path::new(store)).unwrap();
    for p in 0..points {
        let commit = Commit {
            sha: format!("c{p:04}"),
            time: Timestamp::from_unix_nanos(1_700_000_000_000_000_000 + p * 60_000_000_000),
            branch: Some("main".into()),
            dirty: false,
        };
        db.add(&result(series, p, points), Some(&commit)).unwrap();
    }
    for k in 0..5 {
        let doc = result(series, points + k, points);
        std::fs::write(format!("{next}-{}.json", k + 1), doc.to_json()).unwrap();
    }
}
