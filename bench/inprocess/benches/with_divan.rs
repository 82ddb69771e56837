use inprocess_peers::*;
use std::hint::black_box;

fn main() {
    divan::main();
}

#[divan::bench]
fn empty() {}

#[divan::bench]
fn add_one_() -> u64 {
    add_one(black_box(41))
}

#[divan::bench]
fn sum128_(b: divan::Bencher) {
    let xs = data128();
    b.bench(|| sum128(&xs));
}

#[divan::bench]
fn spin_10us_() -> u64 {
    spin_10us()
}

#[divan::bench]
fn walk_64mib_(b: divan::Bencher) {
    let mut walk = Walk::new();
    b.bench_local(|| walk.steps());
}

#[divan::bench]
fn bimodal_(b: divan::Bencher) {
    let mut two = Bimodal::new();
    b.bench_local(|| two.call());
}
