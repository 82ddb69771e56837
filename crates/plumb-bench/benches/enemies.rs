//! The six enemies of measurement from "First Things First: Enemies of Measurement",
//! translated to Rust. Each pair has a variant the enemy distorts and a clean one; the
//! harness must flag the first with the check that fits and leave the second alone.
//!
//! cargo bench -p plumb-bench --bench enemies

use plumb_bench::{black_box, CountingAllocator, Harness};
use std::collections::HashMap;

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator::system();

/// A small, fast, seeded generator so the data is the same on every run.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// Row.Generate from the post: a payload of 32..256 bytes.
fn generate_row(key: u64) -> Vec<u8> {
    vec![key as u8; 32 + (key % 225) as usize]
}

fn main() {
    // Data the benchmarks borrow lives longer than the harness that holds them.
    let data: Vec<u64> = (0..4096).collect();
    const N: usize = 1 << 20;
    let mut sorted: Vec<u32> = (0..N as u32).map(|i| 32 + i % 225).collect();
    sorted.sort_unstable();
    let mut shuffled = sorted.clone();
    let mut rng = Lcg(42);
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, rng.next() as usize % (i + 1));
    }

    let mut h = Harness::from_env();

    // Enemy 2 — allocation (the GC pauses of .NET are the allocator here): insert rows
    // into a table, rows made during the inserts vs made beforehand.
    const INSERTS: u64 = 10_000;
    h.group("e2_allocation")
        .baseline("insert_preallocated", |b| {
            b.ops_per_iter(INSERTS).iter_batched(
                || {
                    let rows: Vec<(u64, Vec<u8>)> =
                        (0..INSERTS).map(|k| (k, generate_row(k))).collect();
                    (HashMap::with_capacity(INSERTS as usize), rows)
                },
                |(mut table, mut rows): (HashMap<u64, Vec<u8>>, Vec<(u64, Vec<u8>)>)| {
                    for (k, row) in rows.drain(..) {
                        table.insert(k, row);
                    }
                    (table, rows)
                },
            )
        })
        .bench("insert_alloc_heavy", |b| {
            b.ops_per_iter(INSERTS).iter_batched(
                || HashMap::with_capacity(INSERTS as usize),
                |mut table: HashMap<u64, Vec<u8>>| {
                    for k in 0..INSERTS {
                        table.insert(k, generate_row(k));
                    }
                    table
                },
            )
        });

    // Enemy 3 — system noise: identical code, measured quietly and with every core busy
    // during the second copy.
    let sum = |d: &[u64]| {
        d.iter()
            .fold(0u64, |a, &x| a.wrapping_add(x.rotate_left(7) ^ a))
    };
    h.group("e3_noise_quiet")
        .identical()
        .baseline("copy_a", |b| b.iter(|| sum(black_box(&data))))
        .bench("copy_b", |b| b.iter(|| sum(black_box(&data))));
    h.group("e3_noise_loaded")
        .identical()
        .baseline("copy_a", |b| b.iter(|| sum(black_box(&data))))
        .bench("copy_b_with_busy_cores", |b| {
            let _load = BusyCores::start();
            b.iter(|| sum(black_box(&data)))
        });

    // Enemy 4 — cache state: random lookups in a table that fits the cache and one that
    // does not.
    let sizes = plumb_bench::sizes_across_caches();
    let small = sizes[1];
    let large = *sizes.last().expect("sizes");
    h.group("e4_cache").bench_params(
        "random_lookup",
        "bytes",
        [small, large],
        false,
        |b, &bytes| {
            let n = (bytes / 8) as usize;
            let table: Vec<u64> = (0..n as u64).collect();
            let mut rng = Lcg(7);
            let keys: Vec<usize> = (0..100_000).map(|_| rng.next() as usize % n).collect();
            b.working_set_bytes(bytes)
                .ops_per_iter(keys.len() as u64)
                .iter(|| {
                    let mut acc = 0u64;
                    for &k in &keys {
                        acc = acc.wrapping_add(table[k]);
                    }
                    acc
                })
        },
    );

    // Enemy 5 — branch predictor: the same values, sorted and shuffled, through a branchy
    // filter. `black_box` in the taken branch keeps the compiler from making it branchless.
    let count_above = |d: &[u32]| {
        let mut count = 0u64;
        for &v in d {
            if v > 150 {
                count = black_box(count + 1);
            }
        }
        count
    };
    h.group("e5_branch")
        .same_result()
        .baseline("scan_shuffled", |b| {
            b.ops_per_iter(N as u64)
                .iter_checked(|| count_above(black_box(&shuffled)))
        })
        .bench("scan_sorted", |b| {
            b.ops_per_iter(N as u64)
                .iter_checked(|| count_above(black_box(&sorted)))
        });

    // Enemy 6 — dead code: the same checksum, its result returned vs dropped.
    fn checksum(n: u64) -> u64 {
        (0..n).fold(0u64, |s, i| s.wrapping_add(32 + i % 225))
    }
    const ITEMS: u64 = 100_000;
    h.group("e6_dead_code")
        .baseline("checksum_returned", |b| {
            b.ops_per_iter(ITEMS).iter(|| checksum(black_box(ITEMS)))
        })
        .bench("checksum_dropped", |b| {
            b.ops_per_iter(ITEMS).iter(|| {
                checksum(ITEMS);
            })
        });

    // Enemy 1 (JIT tiers in .NET) becomes cold state in Rust: a memo that fills as it is
    // used. Measured after warm-up to a steady state, and on purpose without warm-up.
    const KEYS: u64 = 5_000;
    let memo_lookup = |memo: &mut HashMap<u64, u64>, rng: &mut Lcg| {
        let k = rng.next() % KEYS;
        *memo.entry(k).or_insert_with(|| {
            (0..2_000u64).fold(k, |a, i| a.rotate_left(5) ^ i.wrapping_mul(a | 1))
        })
    };
    h.group("e1_cold_state")
        .baseline("memo_warm", |b| {
            let (mut memo, mut rng) = (HashMap::new(), Lcg(1));
            b.iter(|| memo_lookup(&mut memo, &mut rng))
        })
        .bench("memo_cold", |b| {
            let (mut memo, mut rng) = (HashMap::new(), Lcg(1));
            b.no_warmup().iter(|| memo_lookup(&mut memo, &mut rng))
        });

    h.run();
}

/// Busy-spinning threads on every core while alive.
struct BusyCores {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl BusyCores {
    fn start() -> Self {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let n = std::thread::available_parallelism().map_or(2, |n| n.get());
        let threads = (0..n)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        x = black_box(x.wrapping_mul(31).wrapping_add(1));
                    }
                })
            })
            .collect();
        BusyCores { stop, threads }
    }
}

impl Drop for BusyCores {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}
