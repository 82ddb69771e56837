//! Waiting for a child the runner started: `wait4`, which gives its status and its own
//! resource usage (the measuring loop's and a duet's).
use std::io;

/// Waits for `pid` and returns its status and resource usage (`ru_maxrss` is the child's
/// own peak, which `getrusage(RUSAGE_CHILDREN)` would not give).
pub(crate) fn wait4(pid: libc::pid_t) -> io::Result<(libc::c_int, libc::rusage)> {
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
