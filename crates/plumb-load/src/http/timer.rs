//! The schedule's alarm clock. `epoll_wait` (hence mio's `poll`) sleeps in whole
//! milliseconds, which would make every send up to a millisecond late; spinning to each
//! due time instead burns a core. A `timerfd` armed for an absolute time (with this
//! thread's timer slack cut to 1 ns) and registered in the same poll wakes the loop within
//! microseconds, and lets answers wake it too. Elsewhere the poll's own timeout is used
//! and the lateness it causes is recorded like any other.

use mio::{Interest, Registry, Token};
use std::time::{Duration, Instant};

#[cfg(target_os = "linux")]
pub struct Alarm {
    fd: std::os::fd::OwnedFd,
    /// The same moment on both clocks, to turn an `Instant` into CLOCK_MONOTONIC time.
    base: (Instant, libc::timespec),
}

#[cfg(target_os = "linux")]
impl Alarm {
    pub fn new(registry: &Registry, token: Token) -> std::io::Result<Alarm> {
        use std::os::fd::{AsRawFd, FromRawFd};
        // SAFETY: plain syscalls; the fd is checked and then owned.
        let timer = unsafe {
            libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong);
            let fd = libc::timerfd_create(
                libc::CLOCK_MONOTONIC,
                libc::TFD_NONBLOCK | libc::TFD_CLOEXEC,
            );
            if fd < 0 {
                return Err(std::io::Error::last_os_error());
            }
            let mut ts: libc::timespec = std::mem::zeroed();
            let now = Instant::now();
            libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts);
            Alarm {
                fd: std::os::fd::OwnedFd::from_raw_fd(fd),
                base: (now, ts),
            }
        };
        registry.register(
            &mut mio::unix::SourceFd(&timer.fd.as_raw_fd()),
            token,
            Interest::READABLE,
        )?;
        Ok(timer)
    }

    /// Arms the alarm for `at`; the poll then wakes with `token` readable at that time.
    pub fn arm(&self, at: Instant) -> std::io::Result<()> {
        use std::os::fd::AsRawFd;
        let (base_instant, base_ts) = self.base;
        let offset = at
            .saturating_duration_since(base_instant)
            .max(Duration::from_nanos(1));
        let total_ns = base_ts.tv_nsec as u128 + offset.subsec_nanos() as u128;
        let zero = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        let spec = libc::itimerspec {
            it_interval: zero,
            it_value: libc::timespec {
                tv_sec: base_ts.tv_sec
                    + offset.as_secs() as libc::time_t
                    + (total_ns / 1_000_000_000) as libc::time_t,
                tv_nsec: (total_ns % 1_000_000_000) as libc::c_long,
            },
        };
        // SAFETY: a valid timerfd and a fully initialised itimerspec.
        let rc = unsafe {
            libc::timerfd_settime(
                self.fd.as_raw_fd(),
                libc::TFD_TIMER_ABSTIME,
                &spec,
                std::ptr::null_mut(),
            )
        };
        if rc != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }

    /// Clears a fired alarm (the poll is edge-triggered: an unread expiry never re-fires).
    pub fn acknowledge(&self) {
        use std::os::fd::AsRawFd;
        let mut expirations = 0u64;
        // SAFETY: reading 8 bytes into a u64 from a non-blocking timerfd.
        let _ = unsafe {
            libc::read(
                self.fd.as_raw_fd(),
                (&mut expirations as *mut u64).cast(),
                8,
            )
        };
    }

    /// The poll's own timeout while the alarm is armed: none needed, but bounded so the
    /// stop flag is seen.
    pub fn poll_timeout(&self, _at: Instant) -> Duration {
        MAX_WAIT
    }
}

#[cfg(not(target_os = "linux"))]
pub struct Alarm;

#[cfg(not(target_os = "linux"))]
impl Alarm {
    pub fn new(_: &Registry, _: Token) -> std::io::Result<Alarm> {
        Ok(Alarm)
    }
    pub fn arm(&self, _: Instant) -> std::io::Result<()> {
        Ok(())
    }
    pub fn acknowledge(&self) {}
    pub fn poll_timeout(&self, at: Instant) -> Duration {
        at.saturating_duration_since(Instant::now()).min(MAX_WAIT)
    }
}

/// A bound on one wait, so the stop flag is seen.
pub const MAX_WAIT: Duration = Duration::from_millis(100);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wakes_the_poll_close_to_the_due_time() {
        let mut poll = mio::Poll::new().unwrap();
        let mut events = mio::Events::with_capacity(8);
        let t = Alarm::new(poll.registry(), Token(7)).unwrap();
        let mut late = Vec::new();
        for _ in 0..50 {
            let due = Instant::now() + Duration::from_micros(700);
            t.arm(due).unwrap();
            while Instant::now() < due {
                poll.poll(&mut events, Some(t.poll_timeout(due))).unwrap();
                t.acknowledge();
            }
            late.push(Instant::now().duration_since(due));
        }
        late.sort();
        // The median within 0.5 ms even on a loaded CI machine (a millisecond poll
        // timeout alone would be up to 1 ms late on every wait).
        assert!(
            late[25] < Duration::from_micros(500),
            "median lateness {:?}",
            late[25]
        );
    }
}
