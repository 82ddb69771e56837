//! Duet runs: the two commands of a pair started at once, each pinned to a CPU of its
//! own, so that whatever the host does to the machine during the pair — a slower clock, a
//! neighbour's burst — it does to both, and their ratio cancels it (duet benchmarking,
//! Bulej et al., ICPE 2020). Each side is timed from its own spawn to its own exit, seen
//! through a pidfd so the two ends are stamped as they happen, whichever comes first, and
//! no other child of the process is reaped by mistake. Pinning is done by pinning plumb's
//! own thread before each spawn (a child inherits it; `posix_spawn` stays usable), then
//! restoring it.
use crate::process::{wait4, Executable};
use crate::spawner::{RunRecord, SpawnError};
use plumb_probe::{Probe, WallClock};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// Two CPUs plumb may run on, for a duet; `None` where fewer than two are allowed.
pub fn two_cpus() -> Option<[usize; 2]> {
    let allowed = Affinity::current().ok()?;
    let mut cpus = (0..libc::CPU_SETSIZE as usize).filter(|&c| allowed.has(c));
    Some([cpus.next()?, cpus.next()?])
}

/// A thread's CPU affinity mask.
struct Affinity(libc::cpu_set_t);

impl Affinity {
    fn current() -> io::Result<Affinity> {
        // SAFETY: cpu_set_t is plain old data; zeroed is the empty set.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        // SAFETY: the size and pointer are of a live cpu_set_t; 0 is this thread.
        let r = unsafe { libc::sched_getaffinity(0, std::mem::size_of_val(&set), &mut set) };
        match r {
            0 => Ok(Affinity(set)),
            _ => Err(io::Error::last_os_error()),
        }
    }

    fn only(cpu: usize) -> Affinity {
        // SAFETY: as above; CPU_SET writes within the set for cpu < CPU_SETSIZE.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        unsafe { libc::CPU_SET(cpu, &mut set) };
        Affinity(set)
    }

    fn has(&self, cpu: usize) -> bool {
        // SAFETY: reads within the set for cpu < CPU_SETSIZE.
        unsafe { libc::CPU_ISSET(cpu, &self.0) }
    }

    /// Makes this the calling thread's mask.
    fn apply(&self) -> io::Result<()> {
        // SAFETY: the size and pointer are of a live cpu_set_t; 0 is this thread.
        let r = unsafe { libc::sched_setaffinity(0, std::mem::size_of_val(&self.0), &self.0) };
        match r {
            0 => Ok(()),
            _ => Err(io::Error::last_os_error()),
        }
    }
}

/// A pidfd of `pid`: readable once the child has exited (Linux 5.3+).
fn pidfd(pid: u32) -> io::Result<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a descriptor just returned to us, owned from here.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

/// Runs `a` on `cpus[0]` and `b` on `cpus[1]` at once and measures each.
pub fn run_pair(
    a: &mut Executable,
    b: &mut Executable,
    cpus: [usize; 2],
) -> Result<[RunRecord; 2], SpawnError> {
    a.clear_stderr()?;
    b.clear_stderr()?;
    let own = Affinity::current().map_err(|e| a.other(e))?;
    let started = start_both(a, b, cpus);
    // plumb's own thread back on every CPU it had, whatever happened.
    let restored = own.apply();
    let (children, marks) = started?;
    restored.map_err(|e| a.other(e))?;
    let ended = wait_both(&children, marks);
    let [ca, cb] = children;
    match ended {
        Ok([ra, rb]) => Ok([ra, rb]),
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
    Affinity::only(cpus[0]).apply().map_err(|e| a.other(e))?;
    let mark_a = WallClock.start();
    let mut child_a = a.command.spawn().map_err(|e| a.spawn_error(e))?;
    let on_b = Affinity::only(cpus[1]).apply().map_err(|e| b.other(e));
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

/// Waits for both children, stamping each one's end as its pidfd turns readable.
fn wait_both(
    children: &[std::process::Child; 2],
    marks: [std::time::Instant; 2],
) -> io::Result<[RunRecord; 2]> {
    let fds = [pidfd(children[0].id())?, pidfd(children[1].id())?];
    let mut wall_ns = [[0u64; 1]; 2];
    let mut done = [false; 2];
    while !(done[0] && done[1]) {
        let mut polled = [0, 1].map(|i| libc::pollfd {
            fd: if done[i] { -1 } else { fds[i].as_raw_fd() },
            events: libc::POLLIN,
            revents: 0,
        });
        // SAFETY: two live pollfd structs; a negative fd is ignored by poll.
        let r = unsafe { libc::poll(polled.as_mut_ptr(), 2, -1) };
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        for i in 0..2 {
            if !done[i] && polled[i].revents != 0 {
                WallClock.stop(marks[i], &mut wall_ns[i]);
                done[i] = true;
            }
        }
    }
    let mut records = [RunRecord::EMPTY; 2];
    for i in 0..2 {
        let (status, usage) = wait4(children[i].id() as libc::pid_t)?;
        records[i] = crate::process::record(wall_ns[i][0], status, &usage);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OutputPolicy;

    /// A pair runs both at once: two 200 ms sleeps take about 200 ms together, not 400,
    /// each timed on its own (a loose bound: a test never judges a speed difference).
    #[test]
    fn a_pair_runs_both_sides_at_once_and_times_each() {
        let Some(cpus) = two_cpus() else {
            plumb_testkit::skip("fewer than two CPUs allowed");
            return;
        };
        let argv = |s: &str| vec!["sleep".to_string(), s.to_string()];
        let mut a = Executable::new(&argv("0.2"), None, &OutputPolicy::Discard).unwrap();
        let mut b = Executable::new(&argv("0.05"), None, &OutputPolicy::Discard).unwrap();
        let began = std::time::Instant::now();
        let [ra, rb] = run_pair(&mut a, &mut b, cpus).unwrap();
        let both = began.elapsed();
        assert!(both < std::time::Duration::from_millis(390), "{both:?}");
        assert!(ra.wall.as_nanos() >= 200_000_000, "{ra:?}");
        assert!(
            rb.wall.as_nanos() >= 50_000_000 && rb.wall < ra.wall,
            "{rb:?}"
        );
        assert_eq!((ra.failure(), rb.failure()), (None, None));
        // plumb's own thread keeps every CPU it had.
        let own = Affinity::current().unwrap();
        assert!(own.has(cpus[0]) && own.has(cpus[1]));
        // A side that cannot start is said, and the other is not left running.
        let mut missing = Executable::new(
            &["no-such-program-here".into()],
            None,
            &OutputPolicy::Discard,
        )
        .unwrap();
        let e = run_pair(&mut a, &mut missing, cpus).unwrap_err();
        assert!(matches!(e, SpawnError::NotFound(_)), "{e}");
    }
}
