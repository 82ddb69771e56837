//! A write-ahead log with group commit: a writer appends its record to a shared buffer
//! and waits until it is durable. Whoever finds no flush in progress becomes the leader:
//! it takes everything buffered so far, writes it and `fdatasync`s once, then wakes the
//! others — so writers that arrive during one fsync share the next (the batch grows with
//! the load, as in PostgreSQL's or RocksDB's). Without `sync`, records are written to
//! the page cache only, as a store that skips durability does.
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::{Condvar, Mutex};

pub struct Wal {
    file: Mutex<File>,
    state: Mutex<State>,
    durable: Condvar,
    sync: bool,
}

#[derive(Default)]
struct State {
    buffer: Vec<u8>,
    appended: u64,
    durable: u64,
    flushing: bool,
    /// Flushes done, to see the batching in tests.
    flushes: u64,
}

impl Wal {
    /// A log at `path` (created, truncated); `sync`: fdatasync each group.
    pub fn create(path: &Path, sync: bool) -> std::io::Result<Wal> {
        Ok(Wal {
            file: Mutex::new(File::create(path)?),
            state: Mutex::new(State::default()),
            durable: Condvar::new(),
            sync,
        })
    }

    /// Appends `key` and `value` and returns once they are durable (written, and synced
    /// when the log syncs).
    pub fn append(&self, key: u64, value: &[u8]) -> std::io::Result<()> {
        let mut st = self.state.lock().expect("not poisoned");
        st.buffer.extend_from_slice(&key.to_le_bytes());
        st.buffer
            .extend_from_slice(&(value.len() as u32).to_le_bytes());
        st.buffer.extend_from_slice(value);
        st.appended += 1;
        let mine = st.appended;
        while st.durable < mine {
            if st.flushing {
                st = self.durable.wait(st).expect("not poisoned");
                continue;
            }
            st.flushing = true;
            let batch = std::mem::take(&mut st.buffer);
            let upto = st.appended;
            drop(st);
            let written = self.write(&batch);
            st = self.state.lock().expect("not poisoned");
            st.flushing = false;
            st.flushes += 1;
            if written.is_ok() {
                st.durable = upto;
            }
            self.durable.notify_all();
            written?;
        }
        Ok(())
    }

    fn write(&self, batch: &[u8]) -> std::io::Result<()> {
        let mut f = self.file.lock().expect("not poisoned");
        f.write_all(batch)?;
        if self.sync {
            f.sync_data()?;
        }
        Ok(())
    }

    /// Groups flushed so far.
    pub fn flushes(&self) -> u64 {
        self.state.lock().expect("not poisoned").flushes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every record reaches the file, and eight writers share fsyncs: fewer flushes than
    /// records.
    #[test]
    fn writers_share_a_flush_and_every_record_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("wal");
        let wal = Wal::create(&path, true).unwrap();
        std::thread::scope(|s| {
            for t in 0..8u64 {
                let wal = &wal;
                s.spawn(move || {
                    for i in 0..50 {
                        wal.append(t * 1000 + i, &[7; 20]).unwrap();
                    }
                });
            }
        });
        let len = std::fs::metadata(&path).unwrap().len();
        assert_eq!(len, 8 * 50 * (8 + 4 + 20));
        assert!(
            wal.flushes() < 400,
            "{} flushes for 400 records",
            wal.flushes()
        );
    }
}
