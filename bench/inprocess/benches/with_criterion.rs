use criterion::{criterion_group, criterion_main, Criterion};
use inprocess_peers::*;
use std::hint::black_box;

fn bodies(c: &mut Criterion) {
    let xs = data128();
    c.bench_function("empty", |b| b.iter(|| {}));
    c.bench_function("add_one", |b| b.iter(|| add_one(black_box(41))));
    c.bench_function("sum128", |b| b.iter(|| sum128(&xs)));
    c.bench_function("spin_10us", |b| b.iter(spin_10us));
    let mut walk = Walk::new();
    c.bench_function("walk_64mib", |b| b.iter(|| walk.steps()));
    let mut two = Bimodal::new();
    c.bench_function("bimodal", |b| b.iter(|| two.call()));
    c.bench_function("nap", |b| b.iter(nap));
}

criterion_group!(benches, bodies);
criterion_main!(benches);
