//! Duet runs: the two commands of a pair started at once, each pinned to a CPU of its
//! own, so that whatever the host does to the machine during the pair — a slower clock, a
//! neighbour's burst — it does to both, and their ratio cancels it (duet benchmarking,
//! Bulej et al., ICPE 2020). Each side is timed from its own spawn to its own exit, seen
//! through a pidfd so the two ends are stamped as they happen, whichever comes first, and
//! no other child of the process is reaped by mistake. Pinning is done by pinning plumb's
//! own thread before each spawn (a child inherits it; `posix_spawn` stays usable), then
//! restoring it.
use plumb_probe::{Probe, WallClock};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// The pairs a duet cycles through: each side started first in two, on each CPU in two
/// (`arrangement`). The side started first runs longer (here 250 µs longer for a 12 ms
/// sleep: the second's spawn overlaps its start), so a single pair's ratio is off by that
/// either way; a cycle's geometric mean cancels it, and the CPUs' difference, before a
/// round's median is taken (settled.rs).
pub const DUET_CYCLE: u64 = 4;

/// Measured pair `k`'s arrangement: the CPUs of the first and second command (the first
/// on the first CPU in pairs 0 and 1 of every `DUET_CYCLE`, on the second in pairs 2 and
/// 3), and whether the second command is started first (in odd pairs).
pub(crate) fn arrangement(k: u64, [c0, c1]: [usize; 2]) -> ([usize; 2], bool) {
    let cpus = if k % DUET_CYCLE < 2 {
        [c0, c1]
    } else {
        [c1, c0]
    };
    (cpus, k % 2 == 1)
}

/// Two CPUs plumb may run on, for a duet; `None` where fewer than two are allowed.
pub fn two_cpus() -> Option<[usize; 2]> {
    let allowed = Affinity::current().ok()?;
    let mut cpus = (0..libc::CPU_SETSIZE as usize).filter(|&c| allowed.has(c));
    Some([cpus.next()?, cpus.next()?])
}

/// A thread's CPU affinity mask.
pub(crate) struct Affinity(libc::cpu_set_t);

impl Affinity {
    pub(crate) fn current() -> io::Result<Affinity> {
        // SAFETY: cpu_set_t is plain old data; zeroed is the empty set.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        // SAFETY: the size and pointer are of a live cpu_set_t; 0 is this thread.
        let r = unsafe { libc::sched_getaffinity(0, std::mem::size_of_val(&set), &mut set) };
        match r {
            0 => Ok(Affinity(set)),
            _ => Err(io::Error::last_os_error()),
        }
    }

    pub(crate) fn only(cpu: usize) -> Affinity {
        // SAFETY: as above; CPU_SET writes within the set for cpu < CPU_SETSIZE.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        unsafe { libc::CPU_SET(cpu, &mut set) };
        Affinity(set)
    }

    pub(crate) fn has(&self, cpu: usize) -> bool {
        // SAFETY: reads within the set for cpu < CPU_SETSIZE.
        unsafe { libc::CPU_ISSET(cpu, &self.0) }
    }

    /// Makes this the calling thread's mask.
    pub(crate) fn apply(&self) -> io::Result<()> {
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

/// Waits for both children (`pids`, each started at its `marks`), stamping each one's
/// end as its pidfd turns readable; then reaps each: its wall time, status and usage.
pub(crate) fn wait_both(
    pids: [u32; 2],
    marks: [std::time::Instant; 2],
) -> io::Result<[(u64, libc::c_int, libc::rusage); 2]> {
    let fds = [pidfd(pids[0])?, pidfd(pids[1])?];
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
    let (status_a, usage_a) = crate::reap::wait4(pids[0] as libc::pid_t)?;
    let (status_b, usage_b) = crate::reap::wait4(pids[1] as libc::pid_t)?;
    Ok([
        (wall_ns[0][0], status_a, usage_a),
        (wall_ns[1][0], status_b, usage_b),
    ])
}
