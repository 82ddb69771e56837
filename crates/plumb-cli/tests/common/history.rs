//! What the history tests share: result files with known levels and noise, written as
//! plumb writes them, and a history with a step in it.
use super::Env;
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{Benchmark, BenchmarkKind, Environment, Invocation, ProducerSettings};
use plumb_model::{ResultDocument, Settings};
use std::path::PathBuf;

/// A deterministic noise in [-1, 1) from `seed`.
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

/// A plumb result of `name` with 20 runs around `ns` (±2 % between results, ±0.5 % within).
pub fn result(env: &Env, file: &str, name: &str, ns: f64, seed: u64) -> PathBuf {
    let level = ns * (1.0 + 0.02 * noise(seed, 0));
    result_at(env, file, name, level, seed)
}

/// A plumb result of `name` with 20 runs around exactly `level` ns (±0.5 % within).
pub fn result_at(env: &Env, file: &str, name: &str, level: f64, seed: u64) -> PathBuf {
    let settings = Settings {
        confidence: Confidence::DEFAULT,
        sesoi: Fraction::DEFAULT_SESOI,
        producer: ProducerSettings::None,
    };
    let machine = Environment {
        cpu_model: Some("Test CPU".into()),
        cores: Some(2),
        ..Environment::default()
    };
    let mut doc = ResultDocument::new("0.0.0-test", Invocation::current(), machine, settings);
    let times = (1..=20).map(|i| (level * (1.0 + 0.005 * noise(seed, i))) as u64);
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
