//! A write-ahead log with group commit: a writer appends its record to a shared buffer
//! and waits until it is durable. Whoever finds no flush in progress becomes the leader:
//! it takes everything buffered so far, writes it and `fdatasync`s once, then wakes the
//! others — so writers that arrive during one fsync share the next (the batch grows with
//! the load, as in PostgreSQL's or RocksDB's). Without `sync`, records are written to
//! the page cache only, as a store that skips durability does. The file is recycled (cut
//! to nothing) when a segment's worth has been written, as a log whose records a
//! checkpoint has made redundant is: a long run does not fill the disk.
use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::{Condvar, Mutex};

/// Bytes written before the log is recycled.
pub const SEGMENT: u64 = 64 << 20;

pub struct Wal {
    /// The file and the bytes written into it since it was last recycled.
    file: Mutex<(File, u64)>,
    segment: u64,
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
        Self::with_segment(path, sync, SEGMENT)
    }

    /// As `create`, recycled after `segment` bytes.
    pub fn with_segment(path: &Path, sync: bool, segment: u64) -> std::io::Result<Wal> {
        Ok(Wal {
            file: Mutex::new((File::create(path)?, 0)),
            segment,
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
        let mut guard = self.file.lock().expect("not poisoned");
        let (f, written) = &mut *guard;
        if *written + batch.len() as u64 > self.segment {
            f.set_len(0)?;
            f.seek(SeekFrom::Start(0))?;
            *written = 0;
        }
        f.write_all(batch)?;
        *written += batch.len() as u64;
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

    /// Past a segment the file starts again: 100 records of 32 bytes in a 1,000-byte
    /// segment leave at most 31 of them (992 bytes), a whole number of records.
    #[test]
    fn the_log_is_recycled_past_a_segment() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("wal");
        let wal = Wal::with_segment(&path, false, 1_000).unwrap();
        for i in 0..100 {
            wal.append(i, &[1; 20]).unwrap();
        }
        let len = std::fs::metadata(&path).unwrap().len();
        assert!(len <= 1_000 && len.is_multiple_of(32) && len > 0, "{len}");
    }
}
