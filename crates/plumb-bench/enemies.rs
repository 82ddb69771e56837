//! The six enemies of measurement from "First Things First: Enemies of Measurement",
//! translated to Rust. Each experiment has a variant the enemy distorts and a clean one;
//! the harness must flag the first with the check that fits and leave the second alone.
//! `benches/enemies.rs` runs them (`cargo bench -p plumb-bench --bench enemies`) and
//! `tests/enemies.rs` checks the flags.
//!
//! | group | enemy variant | flagged by | clean variant |
//! |---|---|---|---|
//! | `e1_cold_state` | `memo_cold` (no warm-up) | `drift`, `cold-start` | `memo_warm` |
//! | `e2_allocation` | `insert_alloc_heavy` | `allocates` | `insert_preallocated` |
//! | `e3_noise_loaded` | `copy_b_with_busy_cores` | `noise` | `e3_noise_quiet/*` |
//! | `e4_cache` | `random_lookup/bytes=<4×LLC>` | `working-set` | `random_lookup/bytes=<2×L1d>` |
//! | `e5_branch` | `scan_sorted` | `check-the-work` | `scan_shuffled` |
//! | `e6_dead_code` | `checksum_dropped` | `nothing-measured` | `checksum_returned` |
//!
//! Allocation counts need `CountingAllocator` as the global allocator of the binary.

use plumb_bench::{black_box, Harness};
use std::collections::HashMap;

type Rows = Vec<(u64, Vec<u8>)>;
type Table = HashMap<u64, Vec<u8>>;

/// A small, fast, seeded generator so the data is the same on every run.
struct Lcg(u64);
impl Lcg {
    fn next_u64(&mut self) -> u64 {
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

/// Data the experiments borrow; it must outlive the harness.
pub struct EnemyData {
    data: Vec<u64>,
    sorted: Vec<u32>,
    shuffled: Vec<u32>,
}

const N: usize = 1 << 20;

impl EnemyData {
    pub fn new() -> Self {
        let data: Vec<u64> = (0..4096).collect();
        let mut sorted: Vec<u32> = (0..N as u32).map(|i| 32 + i % 225).collect();
        sorted.sort_unstable();
        let mut shuffled = sorted.clone();
        let mut rng = Lcg(42);
        for i in (1..shuffled.len()).rev() {
            shuffled.swap(i, rng.next_u64() as usize % (i + 1));
        }

        EnemyData {
            data,
            sorted,
            shuffled,
        }
    }
}

impl Default for EnemyData {
    fn default() -> Self {
        Self::new()
    }
}

/// Registers the six experiments on `h`.
/// Enemy 3's work: a short dependent chain over a small slice.
fn mix_sum(d: &[u64]) -> u64 {
    d.iter()
        .fold(0u64, |a, &x| a.wrapping_add(x.rotate_left(7) ^ a))
}

/// Enemy 5's filter. `black_box` in the taken branch keeps the compiler from making it
/// branchless, so the branch predictor is what the data order meets.
fn count_above(d: &[u32]) -> u64 {
    let mut count = 0u64;
    for &v in d {
        if v > 150 {
            count = black_box(count + 1);
        }
    }
    count
}

/// Enemy 6's checksum over the Row.Generate formula.
fn checksum(n: u64) -> u64 {
    (0..n).fold(0u64, |s, i| s.wrapping_add(32 + i % 225))
}

const KEYS: u64 = 5_000;

/// Enemy 1's memo: a value computed on first use of a key, looked up after.
fn memo_lookup(memo: &mut HashMap<u64, u64>, rng: &mut Lcg) -> u64 {
    let k = rng.next_u64() % KEYS;
    *memo
        .entry(k)
        .or_insert_with(|| (0..2_000u64).fold(k, |a, i| a.rotate_left(5) ^ i.wrapping_mul(a | 1)))
}

pub fn register<'a>(h: &mut Harness<'a>, d: &'a EnemyData) {
    allocation(h);
    noise(h, d);
    cache(h);
    branch(h, d);
    dead_code(h);
    cold_state(h);
}

fn allocation(h: &mut Harness<'_>) {
    // Enemy 2 — allocation (the GC pauses of .NET are the allocator here): insert rows
    // into a table, rows made during the inserts vs made beforehand.
    const INSERTS: u64 = 10_000;
    h.group("e2_allocation")
        .baseline("insert_preallocated", move |b| {
            b.ops_per_iter(INSERTS).iter_batched(
                || {
                    let rows: Rows = (0..INSERTS).map(|k| (k, generate_row(k))).collect();
                    (HashMap::with_capacity(INSERTS as usize), rows)
                },
                |(mut table, mut rows): (Table, Rows)| {
                    for (k, row) in rows.drain(..) {
                        table.insert(k, row);
                    }
                    (table, rows)
                },
            )
        })
        .bench("insert_alloc_heavy", move |b| {
            b.ops_per_iter(INSERTS).iter_batched(
                || HashMap::with_capacity(INSERTS as usize),
                |mut table: Table| {
                    for k in 0..INSERTS {
                        table.insert(k, generate_row(k));
                    }
                    table
                },
            )
        });
}

fn noise<'a>(h: &mut Harness<'a>, d: &'a EnemyData) {
    let data = &d.data;
    // Enemy 3 — system noise: identical code, measured quietly and with every core busy
    // during the second copy.
    h.group("e3_noise_quiet")
        .identical()
        .baseline("copy_a", move |b| b.iter(|| mix_sum(black_box(data))))
        .bench("copy_b", move |b| b.iter(|| mix_sum(black_box(data))));
    h.group("e3_noise_loaded")
        .identical()
        .baseline("copy_a", move |b| b.iter(|| mix_sum(black_box(data))))
        .bench("copy_b_with_busy_cores", move |b| {
            let _load = BusyCores::start();
            b.iter(|| mix_sum(black_box(data)))
        });
}

fn cache(h: &mut Harness<'_>) {
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
        move |b, &bytes| {
            let n = (bytes / 8) as usize;
            let table: Vec<u64> = (0..n as u64).collect();
            let mut rng = Lcg(7);
            let keys: Vec<usize> = (0..100_000).map(|_| rng.next_u64() as usize % n).collect();
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
}

fn branch<'a>(h: &mut Harness<'a>, d: &'a EnemyData) {
    let (sorted, shuffled) = (&d.sorted, &d.shuffled);
    // Enemy 5 — branch predictor: the same values, sorted and shuffled, through a branchy
    // filter. `black_box` in the taken branch keeps the compiler from making it branchless.
    h.group("e5_branch")
        .same_result()
        .baseline("scan_shuffled", move |b| {
            b.ops_per_iter(N as u64)
                .iter_checked(|| count_above(black_box(shuffled)))
        })
        .bench("scan_sorted", move |b| {
            b.ops_per_iter(N as u64)
                .iter_checked(|| count_above(black_box(sorted)))
        });
}

fn dead_code(h: &mut Harness<'_>) {
    // Enemy 6 — dead code: the same checksum, its result returned vs dropped.
    const ITEMS: u64 = 100_000;
    h.group("e6_dead_code")
        .baseline("checksum_returned", move |b| {
            b.ops_per_iter(ITEMS).iter(|| checksum(black_box(ITEMS)))
        })
        .bench("checksum_dropped", move |b| {
            b.ops_per_iter(ITEMS).iter(|| {
                checksum(ITEMS);
            })
        });
}

fn cold_state(h: &mut Harness<'_>) {
    // Enemy 1 (JIT tiers in .NET) becomes cold state in Rust: a memo that fills as it is
    // used. Measured after warm-up to a steady state, and on purpose without warm-up.
    h.group("e1_cold_state")
        .baseline("memo_warm", move |b| {
            let (mut memo, mut rng) = (HashMap::new(), Lcg(1));
            b.iter(|| memo_lookup(&mut memo, &mut rng))
        })
        .bench("memo_cold", move |b| {
            let (mut memo, mut rng) = (HashMap::new(), Lcg(1));
            b.no_warmup().iter(|| memo_lookup(&mut memo, &mut rng))
        });
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
