//! A scratch directory of this process, removed when dropped: where launches and the
//! simulation write what the parent reads back. Written here, not taken from `tempfile`:
//! that crate brings rustix, two seconds of every user's first build of the harness, for
//! a directory made with `create_dir` (which refuses one that exists, so a name is never
//! shared) and removed on drop.
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

pub(crate) struct ScratchDir(PathBuf);

/// The scratch directories made by this process so far (their names' last part).
static MADE: AtomicU32 = AtomicU32::new(0);

impl ScratchDir {
    /// A new, empty directory under the system's temporary directory.
    pub(crate) fn new() -> std::io::Result<ScratchDir> {
        let base = std::env::temp_dir();
        loop {
            let n = MADE.fetch_add(1, Ordering::Relaxed);
            let path = base.join(format!("plumb-bench-{}-{n}", std::process::id()));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(ScratchDir(path)),
                // Left by an earlier process of the same pid: take the next name.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_is_new_and_gone_when_dropped() {
        let (a, b) = (ScratchDir::new().unwrap(), ScratchDir::new().unwrap());
        assert_ne!(a.path(), b.path());
        std::fs::write(a.path().join("f"), "x").unwrap();
        let kept = a.path().to_path_buf();
        drop(a);
        assert!(!kept.exists());
        assert!(b.path().is_dir());
    }
}
