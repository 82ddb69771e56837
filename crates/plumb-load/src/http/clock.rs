//! The load engine's clock. In a run, the monotonic clock, read inline (the engine is
//! generic over it, so a run's code is the same as with `Instant::now()` written out);
//! in tests, a clock that moves a fixed step at each read, so the engine's schedule,
//! lateness, timeouts and drain can be checked without a server and without real time.
use std::time::Instant;

pub trait TimeSource {
    fn now(&self) -> Instant;
}

/// The monotonic clock (`Instant::now()`).
#[derive(Debug, Clone, Copy, Default)]
pub struct MonotonicSource;

impl TimeSource for MonotonicSource {
    #[inline(always)]
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that starts at a real instant and advances `step` at every read.
#[cfg(test)]
pub struct SteppingSource {
    now: std::cell::Cell<Instant>,
    step: std::time::Duration,
}

#[cfg(test)]
impl SteppingSource {
    pub fn new(start: Instant, step: std::time::Duration) -> Self {
        SteppingSource {
            now: std::cell::Cell::new(start),
            step,
        }
    }

    /// Moves the clock on by `d` without a read.
    pub fn advance(&self, d: std::time::Duration) {
        self.now.set(self.now.get() + d);
    }
}

#[cfg(test)]
impl TimeSource for SteppingSource {
    fn now(&self) -> Instant {
        let t = self.now.get();
        self.now.set(t + self.step);
        t
    }
}
