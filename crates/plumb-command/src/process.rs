//! The timed region of a command benchmark: spawn, wait, read the clock. Everything that
//! can be prepared beforehand is: the `Command` (argv and environment already converted
//! to C strings by std) is built once and spawned many times, and `/dev/null` and the
//! stderr file are opened once, so the timed region holds the spawn, the child's life and
//! one `wait4` — the same work hyperfine times, and nothing more.

use crate::spawner::{Launch, RunRecord, SpawnError, Spawner};
use crate::OutputPolicy;
use plumb_model::quantity::{ByteSize, Duration};
use plumb_model::Exit;
use plumb_probe::{Probe, WallClock};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;
use std::process::{Command, Stdio};

/// A command ready to be spawned and timed repeatedly.
pub struct Executable {
    program: String,
    pub(crate) command: Command,
    /// The child's stderr, kept so a failure can show its tail; truncated before each run.
    stderr: Option<File>,
}

impl Executable {
    pub fn new(
        argv: &[String],
        dir: Option<&Path>,
        output: &OutputPolicy,
    ) -> io::Result<Executable> {
        let mut command = match dir {
            // A relative path with a slash is joined to the directory here: std leaves
            // which directory it is read from unspecified once current_dir is set.
            Some(dir) if argv[0].contains('/') && !argv[0].starts_with('/') => {
                Command::new(dir.join(&argv[0]))
            }
            _ => Command::new(&argv[0]),
        };
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
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
                let f = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| {
                        io::Error::new(e.kind(), format!("--output {}: {e}", path.display()))
                    })?;
                command.stdout(Stdio::from(f));
            }
        }
        Ok(Executable {
            program: argv[0].clone(),
            command,
            stderr,
        })
    }
}

impl Launch for Executable {
    /// Runs the command once and measures it.
    fn run_once(&mut self) -> Result<RunRecord, SpawnError> {
        self.clear_stderr()?;
        let mut wall_ns = [0u64; 1];
        // ---- timed region ----
        let mark = WallClock.start();
        let child = self.command.spawn();
        let child = match child {
            Ok(c) => c,
            Err(e) => return Err(self.spawn_error(e)),
        };
        let waited = crate::reap::wait4(child.id() as libc::pid_t);
        WallClock.stop(mark, &mut wall_ns);
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
        Ok(record(wall_ns[0], status, &usage))
    }

    /// Runs it and `other` at once, each pinned to its CPU (`duet.rs`).
    fn run_beside(
        &mut self,
        other: &mut dyn Launch,
        cpus: [usize; 2],
    ) -> Result<[RunRecord; 2], SpawnError> {
        let Some(other) = other.as_any_mut().downcast_mut::<Executable>() else {
            return Err(self.other(io::Error::other("a duet of a process and a fake")));
        };
        run_pair(self, other, cpus)
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }

    /// The last `max_bytes` of what the last run wrote to stderr (empty when inherited).
    fn stderr_tail(&mut self, max_bytes: u64) -> String {
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
}

/// A duet (`duet.rs`): `a` on `cpus[0]` and `b` on `cpus[1]` at once, each measured.
fn run_pair(
    a: &mut Executable,
    b: &mut Executable,
    cpus: [usize; 2],
) -> Result<[RunRecord; 2], SpawnError> {
    a.clear_stderr()?;
    b.clear_stderr()?;
    let own = crate::duet::Affinity::current().map_err(|e| a.other(e))?;
    let started = start_both(a, b, cpus);
    // plumb's own thread back on every CPU it had, whatever happened.
    let restored = own.apply();
    let (children, marks) = started?;
    restored.map_err(|e| a.other(e))?;
    let ended = crate::duet::wait_both([children[0].id(), children[1].id()], marks);
    let [ca, cb] = children;
    match ended {
        Ok([(wa, sa, ua), (wb, sb, ub)]) => Ok([record(wa, sa, &ua), record(wb, sb, &ub)]),
        Err(e) => {
            // Never leave a child running or unreaped.
            for mut c in [ca, cb] {
                let _ = c.kill();
                let _ = c.wait();
            }
            Err(a.other(e))
        }
    }
}

type Started = ([std::process::Child; 2], [std::time::Instant; 2]);

/// Each side pinned and spawned, its clock started just before its spawn. When B cannot
/// be started, A is killed and reaped.
fn start_both(
    a: &mut Executable,
    b: &mut Executable,
    cpus: [usize; 2],
) -> Result<Started, SpawnError> {
    crate::duet::Affinity::only(cpus[0])
        .apply()
        .map_err(|e| a.other(e))?;
    let mark_a = WallClock.start();
    let mut child_a = a.command.spawn().map_err(|e| a.spawn_error(e))?;
    let on_b = crate::duet::Affinity::only(cpus[1])
        .apply()
        .map_err(|e| b.other(e));
    let mark_b = WallClock.start();
    match on_b.and_then(|_| b.command.spawn().map_err(|e| b.spawn_error(e))) {
        Ok(child_b) => Ok(([child_a, child_b], [mark_a, mark_b])),
        Err(e) => {
            let _ = child_a.kill();
            let _ = child_a.wait();
            Err(e)
        }
    }
}

/// A finished run as the runner records it: its wall time, CPU times, peak and exit.
pub(crate) fn record(wall_ns: u64, status: libc::c_int, usage: &libc::rusage) -> RunRecord {
    RunRecord {
        wall: Duration::from_nanos(wall_ns),
        user: Duration::from_nanos(timeval_ns(usage.ru_utime)),
        sys: Duration::from_nanos(timeval_ns(usage.ru_stime)),
        peak_rss: ByteSize(max_rss_bytes(usage.ru_maxrss)),
        exit: decode_status(status),
    }
}

impl Executable {
    /// Empties the stderr file before a run, so a failure shows this run's tail.
    pub(crate) fn clear_stderr(&mut self) -> Result<(), SpawnError> {
        if let Some(f) = self.stderr.as_mut() {
            f.set_len(0)
                .and_then(|_| f.seek(SeekFrom::Start(0)).map(drop))
                .map_err(|error| self.other(error))?;
        }
        Ok(())
    }

    pub(crate) fn spawn_error(&self, e: io::Error) -> SpawnError {
        match e.kind() {
            io::ErrorKind::NotFound => SpawnError::NotFound(self.program.clone()),
            io::ErrorKind::PermissionDenied => SpawnError::PermissionDenied(self.program.clone()),
            _ => self.other(e),
        }
    }

    pub(crate) fn other(&self, error: io::Error) -> SpawnError {
        SpawnError::Other {
            program: self.program.clone(),
            error,
        }
    }
}

/// `ru_maxrss` is KiB on Linux and bytes on macOS.
fn max_rss_bytes(raw: libc::c_long) -> u64 {
    let v = u64::try_from(raw).unwrap_or(0);
    if cfg!(target_os = "macos") {
        v
    } else {
        v.saturating_mul(1024)
    }
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

fn decode_status(status: libc::c_int) -> Exit {
    if libc::WIFSIGNALED(status) {
        Exit::Signal {
            signal: libc::WTERMSIG(status),
        }
    } else {
        // wait4 without WUNTRACED reports only exits and deaths by signal.
        Exit::Code(libc::WEXITSTATUS(status))
    }
}

fn timeval_ns(tv: libc::timeval) -> u64 {
    (tv.tv_sec as u64) * 1_000_000_000 + (tv.tv_usec as u64) * 1_000
}

/// Real processes: `posix_spawn` and `wait4`, timed by the wall clock (see `process.rs`).
#[derive(Debug, Default)]
pub struct ProcessSpawner;

impl Spawner for ProcessSpawner {
    fn prepare(
        &mut self,
        argv: &[String],
        dir: Option<&Path>,
        output: &OutputPolicy,
    ) -> io::Result<Box<dyn Launch>> {
        crate::signals::let_children_take_stop_signals();
        Ok(Box::new(Executable::new(argv, dir, output)?))
    }

    fn reserve(&mut self, launches: usize) -> io::Result<()> {
        crate::fd_limit::reserve(launches)
    }
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
            Executable::new(&argv(&["sh", "-c", "exit 3"]), None, &OutputPolicy::Discard).unwrap();
        let s = e.run_once().unwrap();
        assert_eq!(s.exit, Exit::Code(3));
        assert!(s.wall > Duration::ZERO);
        assert!(s.peak_rss.0 > 0);
    }

    #[test]
    fn sleep_takes_at_least_its_time() {
        let mut e =
            Executable::new(&argv(&["sleep", "0.02"]), None, &OutputPolicy::Discard).unwrap();
        let s = e.run_once().unwrap();
        assert!(s.wall >= Duration::from_millis(20), "{}", s.wall);
        assert_eq!(s.exit, Exit::Code(0));
    }

    #[test]
    fn signal_is_reported() {
        let mut e = Executable::new(
            &argv(&["sh", "-c", "kill -9 $$"]),
            None,
            &OutputPolicy::Discard,
        )
        .unwrap();
        let s = e.run_once().unwrap();
        assert_eq!(s.exit, Exit::Signal { signal: 9 });
    }

    /// A relative program and its own relative reads are taken from the directory given,
    /// not from plumb's: `plumb revs` runs `./prog` in each revision's worktree.
    #[test]
    fn runs_a_relative_program_in_the_directory_given() {
        let dir = tempfile::tempdir().unwrap();
        let prog = dir.path().join("prog");
        std::fs::write(&prog, "#!/bin/sh\ntest -f marker\n").unwrap();
        std::fs::set_permissions(&prog, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        let mut e =
            Executable::new(&argv(&["./prog"]), Some(dir.path()), &OutputPolicy::Discard).unwrap();
        assert_eq!(run_written(&mut e).exit, Exit::Code(1), "no marker yet");
        std::fs::write(dir.path().join("marker"), "").unwrap();
        assert_eq!(e.run_once().unwrap().exit, Exit::Code(0));
    }

    /// Runs a program this test has just written. Another test's fork, between its fork
    /// and exec, can hold the file open for writing for a moment, and exec then fails with
    /// "Text file busy" (ETXTBSY; a clean-clone CI run met it): tried again, briefly.
    fn run_written(e: &mut Executable) -> RunRecord {
        for _ in 0..100 {
            match e.run_once() {
                Err(SpawnError::Other { error, .. })
                    if error.kind() == std::io::ErrorKind::ExecutableFileBusy =>
                {
                    std::thread::sleep(std::time::Duration::from_millis(10))
                }
                other => return other.unwrap(),
            }
        }
        panic!("./prog stayed busy for a second")
    }

    #[test]
    fn keeps_only_the_last_runs_stderr_tail() {
        let mut e = Executable::new(
            &argv(&["sh", "-c", "echo first >&2; echo boom >&2; exit 1"]),
            None,
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
        let mut e = Executable::new(
            &argv(&["plumb-no-such-program"]),
            None,
            &OutputPolicy::Discard,
        )
        .unwrap();
        assert!(matches!(e.run_once(), Err(SpawnError::NotFound(_))));
    }

    #[test]
    fn output_file_collects_stdout() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let mut e = Executable::new(
            &argv(&["echo", "hello"]),
            None,
            &OutputPolicy::File(path.clone()),
        )
        .unwrap();
        e.run_once().unwrap();
        e.run_once().unwrap();
        assert_eq!(std::fs::read_to_string(path).unwrap(), "hello\nhello\n");
    }
}
