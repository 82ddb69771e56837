//! The timed region of a command benchmark: spawn, wait, read the clock. Everything that
//! can be prepared beforehand is: the `Command` (argv and environment already converted
//! to C strings by std) is built once and spawned many times, and `/dev/null` and the
//! stderr file are opened once, so the timed region holds the spawn, the child's life and
//! one `wait4` — the same work hyperfine times, and nothing more.

use crate::OutputPolicy;
use plumb_model::Sample;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::process::{Command, Stdio};
use std::time::Instant;

#[derive(Debug)]
pub enum SpawnError {
    NotFound(String),
    PermissionDenied(String),
    Other { program: String, error: io::Error },
}

impl fmt::Display for SpawnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpawnError::NotFound(p) => write!(
                f,
                "command not found: {p:?} (commands run without a shell; use --shell for shell syntax)"
            ),
            SpawnError::PermissionDenied(p) => write!(f, "permission denied running {p:?}"),
            SpawnError::Other { program, error } => write!(f, "cannot run {program:?}: {error}"),
        }
    }
}

impl std::error::Error for SpawnError {}

/// A command ready to be spawned and timed repeatedly.
pub struct Executable {
    program: String,
    command: Command,
    /// The child's stderr, kept so a failure can show its tail; truncated before each run.
    stderr: Option<File>,
}

impl Executable {
    pub fn new(argv: &[String], output: &OutputPolicy) -> io::Result<Executable> {
        let mut command = Command::new(&argv[0]);
        // An open /dev/null rather than Stdio::null(), which would open it on every spawn.
        command
            .args(&argv[1..])
            .stdin(Stdio::from(File::open("/dev/null")?));
        let stderr = match output {
            OutputPolicy::Inherit => None,
            OutputPolicy::Discard | OutputPolicy::File(_) => {
                let f = memory_file()?;
                command.stderr(Stdio::from(f.try_clone()?));
                Some(f)
            }
        };
        match output {
            OutputPolicy::Inherit => {}
            OutputPolicy::Discard => {
                command.stdout(Stdio::from(File::create("/dev/null")?));
            }
            OutputPolicy::File(path) => {
                let f = OpenOptions::new().create(true).append(true).open(path)?;
                command.stdout(Stdio::from(f));
            }
        }
        Ok(Executable {
            program: argv[0].clone(),
            command,
            stderr,
        })
    }

    /// Runs the command once and measures it.
    pub fn run_once(&mut self) -> Result<Sample, SpawnError> {
        if let Some(f) = self.stderr.as_mut() {
            f.set_len(0)
                .and_then(|_| f.seek(SeekFrom::Start(0)).map(drop))
                .map_err(|error| self.other(error))?;
        }
        // ---- timed region ----
        let start = Instant::now();
        let child = self.command.spawn();
        let child = match child {
            Ok(c) => c,
            Err(e) => return Err(self.spawn_error(e)),
        };
        let waited = wait4(child.id() as libc::pid_t);
        let wall = start.elapsed();
        // ---- end of timed region ----
        let (status, usage) = match waited {
            Ok(r) => r,
            Err(error) => {
                // Never leave a child running or unreaped.
                let mut child = child;
                let _ = child.kill();
                let _ = child.wait();
                return Err(self.other(error));
            }
        };
        let (exit_code, signal) = decode_status(status);
        Ok(Sample {
            wall_ns: u64::try_from(wall.as_nanos()).unwrap_or(u64::MAX),
            iterations: 1,
            user_ns: Some(timeval_ns(usage.ru_utime)),
            sys_ns: Some(timeval_ns(usage.ru_stime)),
            max_rss_kib: max_rss_kib(usage.ru_maxrss),
            exit_code,
            signal,
        })
    }

    /// The last `max_bytes` of what the last run wrote to stderr (empty when inherited).
    pub fn stderr_tail(&mut self, max_bytes: u64) -> String {
        let Some(f) = self.stderr.as_mut() else {
            return String::new();
        };
        let len = f.metadata().map(|m| m.len()).unwrap_or(0);
        let mut buf = Vec::new();
        if f.seek(SeekFrom::Start(len.saturating_sub(max_bytes)))
            .is_ok()
        {
            let _ = f.read_to_end(&mut buf);
        }
        String::from_utf8_lossy(&buf).trim_end().to_string()
    }

    fn spawn_error(&self, e: io::Error) -> SpawnError {
        match e.kind() {
            io::ErrorKind::NotFound => SpawnError::NotFound(self.program.clone()),
            io::ErrorKind::PermissionDenied => SpawnError::PermissionDenied(self.program.clone()),
            _ => self.other(e),
        }
    }

    fn other(&self, error: io::Error) -> SpawnError {
        SpawnError::Other {
            program: self.program.clone(),
            error,
        }
    }
}

/// Waits for `pid` and returns its status and resource usage (`ru_maxrss` is the child's
/// own peak, which `getrusage(RUSAGE_CHILDREN)` would not give).
fn wait4(pid: libc::pid_t) -> io::Result<(libc::c_int, libc::rusage)> {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data; zeroed is a valid value for it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: pointers are to live locals; pid is our own child.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return Ok((status, usage));
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// `ru_maxrss` is KiB on Linux and bytes on macOS.
fn max_rss_kib(raw: libc::c_long) -> Option<u64> {
    let v = u64::try_from(raw).ok()?;
    Some(if cfg!(target_os = "macos") {
        v / 1024
    } else {
        v
    })
}

/// An in-memory file for the child's stderr (memfd on Linux), so a chatty command writes
/// to RAM, not to a disk whose writeback could land inside later timed runs.
fn memory_file() -> io::Result<File> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::FromRawFd;
        // SAFETY: a valid NUL-terminated name; the returned fd is owned by the File.
        let fd = unsafe { libc::memfd_create(c"plumb-stderr".as_ptr(), libc::MFD_CLOEXEC) };
        if fd >= 0 {
            return Ok(unsafe { File::from_raw_fd(fd) });
        }
    }
    tempfile::tempfile()
}

/// Restores the default SIGCHLD disposition: a parent that ignores SIGCHLD would make
/// every child auto-reaped and every `wait4` fail with ECHILD.
pub fn reset_sigchld() {
    // SAFETY: setting a signal disposition to its default is always sound.
    unsafe {
        libc::signal(libc::SIGCHLD, libc::SIG_DFL);
    }
}

fn decode_status(status: libc::c_int) -> (Option<i32>, Option<i32>) {
    if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else if libc::WIFSIGNALED(status) {
        (None, Some(libc::WTERMSIG(status)))
    } else {
        (None, None)
    }
}

fn timeval_ns(tv: libc::timeval) -> u64 {
    (tv.tv_sec as u64) * 1_000_000_000 + (tv.tv_usec as u64) * 1_000
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn measures_exit_code_and_cpu_time() {
        let mut e =
            Executable::new(&argv(&["sh", "-c", "exit 3"]), &OutputPolicy::Discard).unwrap();
        let s = e.run_once().unwrap();
        assert_eq!(s.exit_code, Some(3));
        assert!(s.wall_ns > 0);
        assert!(s.max_rss_kib.unwrap() > 0);
    }

    #[test]
    fn sleep_takes_at_least_its_time() {
        let mut e = Executable::new(&argv(&["sleep", "0.02"]), &OutputPolicy::Discard).unwrap();
        let s = e.run_once().unwrap();
        assert!(s.wall_ns >= 20_000_000, "{}", s.wall_ns);
        assert_eq!(s.exit_code, Some(0));
    }

    #[test]
    fn signal_is_reported() {
        let mut e =
            Executable::new(&argv(&["sh", "-c", "kill -9 $$"]), &OutputPolicy::Discard).unwrap();
        let s = e.run_once().unwrap();
        assert_eq!((s.exit_code, s.signal), (None, Some(9)));
    }

    #[test]
    fn keeps_only_the_last_runs_stderr_tail() {
        let mut e = Executable::new(
            &argv(&["sh", "-c", "echo first >&2; echo boom >&2; exit 1"]),
            &OutputPolicy::Discard,
        )
        .unwrap();
        e.run_once().unwrap();
        e.run_once().unwrap();
        assert_eq!(e.stderr_tail(1024), "first\nboom");
        assert_eq!(e.stderr_tail(5), "boom", "the last 5 bytes are \"boom\\n\"");
    }

    #[test]
    fn missing_program_is_not_found() {
        let mut e =
            Executable::new(&argv(&["plumb-no-such-program"]), &OutputPolicy::Discard).unwrap();
        assert!(matches!(e.run_once(), Err(SpawnError::NotFound(_))));
    }

    #[test]
    fn output_file_collects_stdout() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let mut e =
            Executable::new(&argv(&["echo", "hello"]), &OutputPolicy::File(path.clone())).unwrap();
        e.run_once().unwrap();
        e.run_once().unwrap();
        assert_eq!(std::fs::read_to_string(path).unwrap(), "hello\nhello\n");
    }
}
