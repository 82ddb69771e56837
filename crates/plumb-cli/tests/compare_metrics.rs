//! `plumb compare --metric` end to end on results whose counts were crafted: amounts that
//! are zero on both sides are judged one way whichever is asked (issue 45, defect 18:
//! allocated bytes 0 → 0 was "inconclusive", allocations 0 → 0 "equivalent").
mod common;

use common::Env;
use plumb_model::{Benchmark, BenchmarkKind, Environment, Metric, MetricInfo, Samples};

/// A result of one benchmark, 20 runs around 1 ms, none of which allocates.
fn without_allocations(env: &Env, file: &str) -> String {
    let mut doc = common::test_document(Environment::default());
    let times = (0..20u64).map(|i| 1_000_000 + i * 37 % 1000);
    let mut b = Benchmark::of_wall_times("parse", BenchmarkKind::Command, times.clone());
    let counted = [Metric::Allocations, Metric::AllocatedBytes];
    for m in &counted {
        b.metrics.insert(m.clone(), MetricInfo::measured(m));
    }
    let mut samples = Samples::default();
    for t in times {
        samples.push(
            1,
            &[
                (Metric::WallTime, t),
                (counted[0].clone(), 0),
                (counted[1].clone(), 0),
            ],
        );
    }
    b.samples = samples;
    doc.benchmarks.push(b);
    let path = env.path(file);
    std::fs::write(&path, doc.to_json()).unwrap();
    path.display().to_string()
}

#[test]
fn nothing_allocated_on_either_side_is_equivalent_in_count_and_in_bytes() {
    let env = Env::new();
    let (a, b) = (
        without_allocations(&env, "a.json"),
        without_allocations(&env, "b.json"),
    );
    for metric in ["allocations", "allocated-bytes"] {
        let r = env.plumb(&["compare", &a, &b, "--metric", metric]);
        r.assert_code(0);
        assert!(r.stdout.contains("equivalent"), "{metric}: {}", r.stdout);
        assert!(
            !r.stdout.contains("distinguishable from zero"),
            "{metric}: {}",
            r.stdout
        );
    }
}
