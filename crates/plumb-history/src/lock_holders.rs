//! Who holds a SQLite store's lock: the processes with a write lock on the database or its
//! -wal and -shm files in /proc/locks (Linux's table of file locks, by device and inode),
//! each with its command line. SQLite itself cannot say; a user waiting on a lock wants to
//! know which job to wait for or stop.
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// "pid 1234 (python3 hold.py)" for each other process holding a write lock on `db`.
pub(crate) fn lock_holders(db: &Path) -> Vec<String> {
    let files: Vec<(u64, u64)> = ["", "-wal", "-shm"]
        .iter()
        .filter_map(|suffix| {
            let mut name = db.as_os_str().to_owned();
            name.push(suffix);
            std::fs::metadata(Path::new(&name)).ok()
        })
        .map(|m| (m.dev(), m.ino()))
        .collect();
    let Ok(table) = std::fs::read_to_string("/proc/locks") else {
        return Vec::new();
    };
    let me = std::process::id();
    let mut pids: Vec<u32> = table
        .lines()
        .filter_map(|line| holder(line, &files))
        .filter(|pid| *pid != me)
        .collect();
    pids.sort_unstable();
    pids.dedup();
    pids.into_iter().map(described).collect()
}

/// The pid of a /proc/locks line's write lock on one of `files`.
/// (`1: POSIX  ADVISORY  WRITE 1234 fd:01:5678 1073741824 1073742335`)
fn holder(line: &str, files: &[(u64, u64)]) -> Option<u32> {
    let f: Vec<&str> = line.split_whitespace().collect();
    let at = f.iter().position(|w| *w == "WRITE")?;
    let pid: u32 = f.get(at + 1)?.parse().ok()?;
    let mut id = f.get(at + 2)?.split(':');
    let (major, minor, inode) = (id.next()?, id.next()?, id.next()?);
    let (major, minor) = (
        u64::from_str_radix(major, 16).ok()?,
        u64::from_str_radix(minor, 16).ok()?,
    );
    let inode: u64 = inode.parse().ok()?;
    // Linux's dev_t: minor's low 8 bits, major's 12, minor's rest above.
    let dev = (minor & 0xff) | ((major & 0xfff) << 8) | ((minor & !0xff) << 12);
    files.contains(&(dev, inode)).then_some(pid)
}

/// `pid N (PROGRAM)`: the program's file name only. Its arguments are not said: they
/// may carry a token or a password (`--token …`, a URL), and a message is read by anyone.
fn described(pid: u32) -> String {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let argv0 = cmdline.split(|c| *c == 0).next().unwrap_or_default();
    let program = std::path::Path::new(&*String::from_utf8_lossy(argv0))
        .file_name()
        .map(|n| plumb_model::redact::without_password(&n.to_string_lossy()))
        .unwrap_or_default();
    if program.is_empty() {
        format!("pid {pid}")
    } else {
        format!("pid {pid} ({program})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_lock_line_names_its_process_by_device_and_inode() {
        let dev = 0xfd01u64; // major 0xfd, minor 1
        let line = "1: POSIX  ADVISORY  WRITE 4242 fd:01:5678 1073741824 1073742335";
        assert_eq!(holder(line, &[(dev, 5678)]), Some(4242));
        assert_eq!(holder(line, &[(dev, 5679)]), None);
        let read = "2: POSIX  ADVISORY  READ 4243 fd:01:5678 128 128";
        assert_eq!(holder(read, &[(dev, 5678)]), None);
    }
}
