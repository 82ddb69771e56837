//! Why counting cannot go ahead or its output cannot be read: the machine record's caches
//! unknown to valgrind, cachegrind's totals unreadable, a counters mode unknown.
use crate::valgrind::SimError;
use std::fmt;

/// A cache the simulation needs that the machine record lacks or leaves incomplete (its
/// name: "L1 instruction", "L1 data", "last-level").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoGeometry {
    Missing(&'static str),
    Incomplete(&'static str),
}

impl fmt::Display for NoGeometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoGeometry::Missing(what) => write!(f, "the machine record has no {what} cache"),
            NoGeometry::Incomplete(what) => write!(
                f,
                "the machine record lacks the {what} cache's associativity or line size"
            ),
        }
    }
}

/// cachegrind's (or callgrind's) output without the totals plumb reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadTotals {
    /// No `events:` or `summary:` line.
    NoLine(&'static str),
    /// A total that is not a count.
    Value { value: String, why: String },
    /// More events than totals, or fewer.
    Count { events: usize, totals: usize },
    /// An event plumb needs that was not simulated.
    NoEvent(&'static str),
}

impl fmt::Display for BadTotals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadTotals::NoLine(key) => write!(f, "no `{key}` line in cachegrind's output"),
            BadTotals::Value { value, why } => write!(f, "summary value {value:?}: {why}"),
            BadTotals::Count { events, totals } => write!(
                f,
                "cachegrind's output lists {events} events but {totals} totals"
            ),
            BadTotals::NoEvent(name) => write!(
                f,
                "cachegrind's output has no {name} (was cache and branch simulation on?)"
            ),
        }
    }
}

/// Why counters cannot be simulated on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CannotSimulate {
    /// valgrind is missing or does not run.
    Valgrind(SimError),
    /// The caches valgrind would be given are unknown.
    Caches(NoGeometry),
}

impl fmt::Display for CannotSimulate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CannotSimulate::Valgrind(e) => e.fmt(f),
            CannotSimulate::Caches(e) => {
                write!(f, "{e}, so valgrind cannot be given this machine's caches")
            }
        }
    }
}

/// A `--counters` mode that is none of auto, hardware, simulated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownMode(pub String);

impl fmt::Display for UnknownMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown counters {:?} (auto, hardware or simulated)",
            self.0
        )
    }
}

impl std::error::Error for NoGeometry {}
impl std::error::Error for BadTotals {}
impl std::error::Error for CannotSimulate {}
impl std::error::Error for UnknownMode {}
