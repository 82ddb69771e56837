use inprocess_peers::*;
use plumb_bench::{black_box, Harness};

fn main() {
    let xs = data128();
    // Declared before the harness, which borrows them until it is dropped.
    let mut walk = Walk::new();
    let mut two = Bimodal::new();
    let mut h = Harness::from_env();
    h.bench("empty", |b| b.iter(|| {}));
    h.bench("add_one", |b| b.iter(|| add_one(black_box(41))));
    h.bench("sum128", |b| b.iter(|| sum128(&xs)));
    h.bench("spin_10us", |b| b.iter(spin_10us));
    h.bench("walk_64mib", |b| b.iter(|| walk.steps()));
    h.bench("bimodal", |b| b.iter(|| two.call()));
    h.bench("nap", |b| b.iter(nap));
    h.run();
}
