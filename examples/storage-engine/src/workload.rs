//! One batch of operations, as a benchmark iteration runs it: `threads` threads (scoped,
//! started for the batch) each doing `ops_per_thread` operations — a read or a write
//! drawn by the mix, its key from the design's distribution, a write's value of a drawn
//! size, logged to the WAL when there is one. Seeded: a batch is the same every time.
use crate::{KvStore, Wal};
use plumb_bench::data::{ScrambledZipfian, SizeDist};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// Which keys a thread touches.
#[derive(Clone)]
pub enum KeyOrder {
    /// Thread t writes keys t·n, t·n + 1, … in order (its own range, as the article's
    /// Narrow design: "sequential keys per thread").
    SequentialPerThread,
    /// YCSB's scrambled Zipfian over the records (θ = 0.99): hot keys spread out.
    Zipfian(ScrambledZipfian),
}

#[derive(Clone)]
pub struct Workload {
    pub threads: usize,
    pub ops_per_thread: usize,
    pub keys: KeyOrder,
    pub values: SizeDist,
    /// The share of operations that read; the rest write.
    pub read_share: f64,
}

/// The largest value any design writes; values are slices of one buffer of it.
pub const MAX_VALUE: usize = 4096;
static VALUE: [u8; MAX_VALUE] = [0x5a; MAX_VALUE];

impl Workload {
    pub fn ops_per_batch(&self) -> u64 {
        (self.threads * self.ops_per_thread) as u64
    }

    /// Runs one batch on `store` (and `wal`); returns how many reads found their key,
    /// so the work cannot be optimised away.
    pub fn run(&self, store: &dyn KvStore, wal: Option<&Wal>, seed: u64) -> u64 {
        if self.threads == 1 {
            return self.thread(store, wal, 0, seed);
        }
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..self.threads)
                .map(|t| s.spawn(move || self.thread(store, wal, t, seed)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a worker panicked"))
                .sum()
        })
    }

    fn thread(&self, store: &dyn KvStore, wal: Option<&Wal>, t: usize, seed: u64) -> u64 {
        let mut rng = Pcg64::seed_from_u64(seed ^ (t as u64).wrapping_mul(0x9E37_79B9));
        let mut found = 0;
        for i in 0..self.ops_per_thread {
            let key = match &self.keys {
                KeyOrder::SequentialPerThread => (t * self.ops_per_thread + i) as u64,
                KeyOrder::Zipfian(z) => z.sample(&mut rng),
            };
            if self.read_share > 0.0 && rng.gen::<f64>() < self.read_share {
                found += u64::from(store.get(key).is_some());
                continue;
            }
            let value = &VALUE[..(self.values.sample(&mut rng) as usize).min(MAX_VALUE)];
            store.put(key, value);
            if let Some(wal) = wal {
                wal.append(key, value).expect("the log is writable");
            }
        }
        found
    }

    /// Fills `store` with `records` keys of drawn sizes (untimed setup).
    pub fn load(&self, store: &dyn KvStore, records: u64) {
        let mut rng = Pcg64::seed_from_u64(records);
        for key in 0..records {
            let size = (self.values.sample(&mut rng) as usize).min(MAX_VALUE);
            store.put(key, &VALUE[..size]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LockMap;

    #[test]
    fn a_batch_is_repeatable_and_does_its_operations() {
        let w = Workload {
            threads: 2,
            ops_per_thread: 100,
            keys: KeyOrder::SequentialPerThread,
            values: SizeDist::Fixed(10),
            read_share: 0.0,
        };
        let store = LockMap::new();
        w.run(&store, None, 1);
        assert_eq!(store.len(), 200);
        let z = Workload {
            keys: KeyOrder::Zipfian(ScrambledZipfian::new(1000).unwrap()),
            read_share: 0.5,
            ..w
        };
        z.load(&store, 1000);
        let (a, b) = (z.run(&store, None, 7), z.run(&store, None, 7));
        // Every key 0..1000 exists: each read finds its key; about half the 200 ops read.
        assert_eq!(a, b);
        assert!((60..140).contains(&a), "{a}");
    }
}
