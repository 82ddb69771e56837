//! The six enemies of measurement, run as a benchmark: see `plumb_bench::enemies`.
//!
//! cargo bench -p plumb-bench --bench enemies

use plumb_bench::{enemies, CountingAllocator, Harness};

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator::system();

fn main() {
    let data = enemies::EnemyData::new();
    let mut h = Harness::from_env();
    enemies::register(&mut h, &data);
    h.run();
}
