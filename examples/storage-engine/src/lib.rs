//! A small key-value store for the storage-engine story of "Why Benchmarks Lie"
//! (`../shared/reading/first-things-first.md`): the same optimisation — one lock around a
//! hash map (`LockMap`) replaced by a map striped over shards, each with its own lock
//! (`StripedMap`) — judged by four benchmark designs (`designs`), with a write-ahead log
//! whose writers share an fsync by group commit (`Wal`).
//!
//! `cargo bench -p storage-engine` runs the four designs; each declares its traits, so
//! plumb prints the red flags that explain why its verdict lies (or does not).

pub mod designs;
mod lock_map;
mod striped_map;
mod wal;
pub mod workload;

pub use lock_map::LockMap;
pub use striped_map::StripedMap;
pub use wal::Wal;

/// A key-value store that many threads use at once.
pub trait KvStore: Sync {
    /// Stores `value` under `key`, replacing what was there.
    fn put(&self, key: u64, value: &[u8]);
    /// The length of the value under `key` (the read copies nothing out).
    fn get(&self, key: u64) -> Option<usize>;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
