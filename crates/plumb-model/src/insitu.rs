//! In-situ timing: named regions of a running program, timed in place (plumb-bench's
//! `insitu::Region`, the talk's `ScopedTimer`) and dumped on demand.

use crate::quantity::Duration;
use serde::{Deserialize, Serialize};

/// How a program's regions were timed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InSituSettings {
    /// `tsc` (fenced rdtsc/rdtscp, invariant TSC) or `monotonic`.
    pub clock: String,
    /// What one timed region costs on this machine (both reads and the two additions),
    /// measured when the dump was made: a region's time includes about this much.
    pub timer_cost: Duration,
}

/// One region's totals since the program started (or since the last reset).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InSituRegion {
    pub name: String,
    pub calls: u64,
    pub total: Duration,
}

impl InSituRegion {
    /// Time per call; `None` for a region never entered.
    pub fn mean(&self) -> Option<Duration> {
        (self.calls > 0).then(|| self.total.div_u64(self.calls))
    }
}
