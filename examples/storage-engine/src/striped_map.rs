//! The optimisation: the map striped over 64 shards, each its own `Mutex<HashMap>`, a key's
//! shard chosen by a multiplicative hash of the key — threads touching different shards
//! never wait for each other, at the price of a second hash and a smaller table per shard.
use crate::KvStore;
use std::collections::HashMap;
use std::sync::Mutex;

const SHARDS: usize = 64;

pub struct StripedMap {
    shards: Vec<Mutex<HashMap<u64, Box<[u8]>>>>,
}

impl Default for StripedMap {
    fn default() -> Self {
        StripedMap {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }
}

impl StripedMap {
    pub fn new() -> Self {
        Self::default()
    }

    fn shard(&self, key: u64) -> &Mutex<HashMap<u64, Box<[u8]>>> {
        // Fibonacci hashing: the top bits of key × 2^64/φ, so neighbouring keys spread.
        let i = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SHARDS.trailing_zeros());
        &self.shards[i as usize]
    }
}

impl KvStore for StripedMap {
    fn put(&self, key: u64, value: &[u8]) {
        let value: Box<[u8]> = value.into();
        self.shard(key)
            .lock()
            .expect("not poisoned")
            .insert(key, value);
    }

    fn get(&self, key: u64) -> Option<usize> {
        self.shard(key)
            .lock()
            .expect("not poisoned")
            .get(&key)
            .map(|v| v.len())
    }

    fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().expect("not poisoned").len())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LockMap;

    /// Both stores hold what was put, last write winning, and spread sequential keys.
    #[test]
    fn both_stores_keep_the_last_value() {
        let stores: [&dyn KvStore; 2] = [&LockMap::new(), &StripedMap::new()];
        for s in stores {
            for k in 0..1000u64 {
                s.put(k, &vec![0; (k % 7) as usize]);
            }
            s.put(3, &[1; 100]);
            assert_eq!(s.len(), 1000);
            assert_eq!(s.get(3), Some(100));
            assert_eq!(s.get(8), Some(1));
            assert_eq!(s.get(5000), None);
        }
        let m = StripedMap::new();
        for k in 0..6400u64 {
            m.put(k, &[]);
        }
        let sizes: Vec<usize> = m.shards.iter().map(|s| s.lock().unwrap().len()).collect();
        assert!(sizes.iter().all(|&n| (50..=150).contains(&n)), "{sizes:?}");
    }
}
