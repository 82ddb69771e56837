//! In-situ timing: named regions of a running program, timed in place (plumb-bench's
//! `insitu::Region`, the talk's `ScopedTimer`) and dumped on demand.

use serde::{Deserialize, Serialize};

/// How a program's regions were timed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InSituSettings {
    /// `tsc` (fenced rdtsc/rdtscp, invariant TSC) or `monotonic`.
    pub clock: String,
    /// What one timed region costs on this machine (both reads and the two additions),
    /// measured when the dump was made: a region's time includes about this much.
    pub timer_cost_ns: f64,
}

/// One region's totals since the program started (or since the last reset).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InSituRegion {
    pub name: String,
    pub calls: u64,
    pub total_ns: f64,
}

impl InSituRegion {
    pub fn mean_ns(&self) -> f64 {
        if self.calls == 0 {
            f64::NAN
        } else {
            self.total_ns / self.calls as f64
        }
    }
}
