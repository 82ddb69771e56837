//! How often something happens per second as measured, not as asked: a clock's ticks.

use serde::{Deserialize, Serialize};

/// Cycles per second (Hz), e.g. a time-stamp counter's calibrated rate. JSON: hertz.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Frequency {
    hertz: f64,
}

impl Frequency {
    pub const fn from_hertz(hertz: f64) -> Frequency {
        Frequency { hertz }
    }
    pub const fn hertz(self) -> f64 {
        self.hertz
    }
    /// Cycles in one nanosecond (a TSC's ticks per ns).
    pub fn per_nanosecond(self) -> f64 {
        self.hertz / 1e9
    }
}
