//! The six enemies of measurement, run as a benchmark: see `enemies.rs` beside `src/`.
//!
//! cargo bench -p plumb-bench --bench enemies

// The six enemies are this crate's own experiments, not the library users build.
#[path = "../enemies.rs"]
mod enemies;

use plumb_bench::{CountingAllocator, Harness};

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator::system();

fn main() {
    let data = enemies::EnemyData::new();
    let mut h = Harness::from_env();
    enemies::register(&mut h, &data);
    h.run();
}
