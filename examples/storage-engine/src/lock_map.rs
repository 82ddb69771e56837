//! The baseline: one `Mutex` around one `HashMap` — every operation of every thread takes
//! the same lock.
use crate::KvStore;
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Default)]
pub struct LockMap {
    map: Mutex<HashMap<u64, Box<[u8]>>>,
}

impl LockMap {
    pub fn new() -> Self {
        Self::default()
    }
}

impl KvStore for LockMap {
    fn put(&self, key: u64, value: &[u8]) {
        let value: Box<[u8]> = value.into();
        self.map.lock().expect("not poisoned").insert(key, value);
    }

    fn get(&self, key: u64) -> Option<usize> {
        self.map
            .lock()
            .expect("not poisoned")
            .get(&key)
            .map(|v| v.len())
    }

    fn len(&self) -> usize {
        self.map.lock().expect("not poisoned").len()
    }
}
