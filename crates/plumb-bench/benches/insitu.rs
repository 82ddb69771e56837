//! What one in-situ region costs (plumb_bench::insitu), against its obvious peer: a pair
//! of `Instant::now()` reads with the same two relaxed additions. Run by
//! bench/insitu-cost.sh; the figures are in bench/results/insitu-cost.md.

use plumb_bench::insitu::Region;
use plumb_bench::{black_box, Harness};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

static REGION: Region = Region::new("cost-probe");
static NANOS: AtomicU64 = AtomicU64::new(0);
static CALLS: AtomicU64 = AtomicU64::new(0);

fn main() {
    let mut h = Harness::from_env();
    h.group("timer")
        .baseline("instant_pair", |b| {
            b.iter(|| {
                let t = Instant::now();
                black_box(());
                NANOS.fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
                CALLS.fetch_add(1, Ordering::Relaxed);
            })
        })
        .bench("insitu_region", |b| {
            b.iter(|| {
                let _t = REGION.time();
                black_box(());
            })
        });
    h.run();
}
