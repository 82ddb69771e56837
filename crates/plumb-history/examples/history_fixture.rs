//! A history store for `bench/history.sh` to time: SERIES benchmarks measured at POINTS
//! commits (20 runs each, ±2 % between results, ±0.5 % within; every tenth benchmark 5 %
//! slower from the middle on), kept through the store's own `add`, and the next five results
//! written as JSON (NEXT-1.json … NEXT-5.json) for timing `plumb history add`.
//!
//! Run: `cargo run --release -p plumb-history --example history_fixture STORE SERIES POINTS NEXT`
use plumb_history::{Commit, HistoryStore, SqliteStore};
use plumb_model::quantity::{Confidence, Fraction, Timestamp};
use plumb_model::{Benchmark, BenchmarkKind, Environment, Invocation, Metric, MetricStats};
use plumb_model::{ProducerSettings, ResultDocument, Settings};

/// A deterministic noise in [-1, 1).
fn noise(a: u64, b: u64) -> f64 {
    // splitmix64's finaliser of the pair: independent-looking values for nearby pairs.
    let mut z = a
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(b.wrapping_mul(0xD1B5_4A32_D192_ED03))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
}

fn result(series: u64, point: u64, points: u64) -> ResultDocument {
    let settings = Settings {
        confidence: Confidence::DEFAULT,
        sesoi: Fraction::DEFAULT_SESOI,
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
        let level = 1e6 * (1.0 + b as f64 * 0.01) * step * (1.0 + 0.02 * noise(b, point));
        let times = (0..20).map(|i| (level * (1.0 + 0.005 * noise(point * 1000 + b, i))) as u64);
        let mut bench =
            Benchmark::of_wall_times(format!("bench-{b:03}"), BenchmarkKind::Command, times);
        let values = bench.analysed(&Metric::WallTime);
        let summary = plumb_stats::Summary::of(&values).expect("values");
        let ci = plumb_stats::mean_ci(&values, Confidence::DEFAULT.get()).ok();
        bench.stats.insert(
            Metric::WallTime,
            MetricStats {
                mean_ci: ci.as_ref().map(|c| c.interval),
                error: ci.as_ref().map(|c| c.error),
                median_ci: None,
                summary,
            },
        );
        doc.benchmarks.push(bench);
    }
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
