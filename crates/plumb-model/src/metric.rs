//! What a sample measures. Every figure plumb keeps per sample is a metric with a unit and
//! a source, so statistics, checks, verdicts and outputs treat instructions per operation
//! exactly as they treat time per operation.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The unit of a metric's raw values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Unit {
    #[serde(rename = "ns")]
    Nanoseconds,
    #[serde(rename = "bytes")]
    Bytes,
    /// Events: instructions, allocations, page faults…
    #[serde(rename = "count")]
    Count,
}

impl Unit {
    /// The unit's name as results write it (`ns`, `bytes`, `count`).
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Nanoseconds => "ns",
            Unit::Bytes => "bytes",
            Unit::Count => "count",
        }
    }

    /// The unit of a name `as_str` writes; None for another.
    pub fn parse(name: &str) -> Option<Unit> {
        [Unit::Nanoseconds, Unit::Bytes, Unit::Count]
            .into_iter()
            .find(|u| u.as_str() == name)
    }

    /// What a figure's name ends with in this unit (`first_ns`, `mode1_bytes`,
    /// `task-clock_mean_ns`); nothing for a count.
    pub fn name_suffix(self) -> &'static str {
        match self {
            Unit::Nanoseconds => "_ns",
            Unit::Bytes => "_bytes",
            Unit::Count => "",
        }
    }
}

/// Where a metric's values come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// Read from a clock, the kernel's accounting (rusage) or plumb's own counters.
    Measured,
    /// The CPU's performance-monitoring unit.
    HardwareCounter,
    /// The kernel's software events (task-clock, page faults, context switches).
    SoftwareCounter,
    /// A simulator (e.g. Cachegrind), not the hardware.
    Simulated,
    /// Computed from other metrics.
    Derived,
}

/// How a sample's value relates to the operations it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aggregate {
    /// The sum over the sample's operations: per operation, divide by the iterations.
    Sum,
    /// A level reached during the sample (peak memory): not divided.
    Peak,
}

macro_rules! metrics {
    ($( $(#[$doc:meta])* $variant:ident = $text:literal, $unit:ident, $agg:ident, $label:literal; )*) => {
        /// A metric's identity. Serialised as the kebab-case name beside each variant;
        /// `Named` holds any other counter (a simulator's, a newer plumb's).
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Metric {
            $( $(#[$doc])* $variant, )*
            Named(String),
        }

        impl Metric {
            /// Every metric with a name of its own, in declaration order.
            pub const KNOWN: &'static [Metric] = &[$(Metric::$variant,)*];

            pub fn as_str(&self) -> &str {
                match self {
                    $( Metric::$variant => $text, )*
                    Metric::Named(s) => s,
                }
            }

            /// The name of a metric with a name of its own, for the life of the program.
            pub fn known_name(&self) -> Option<&'static str> {
                match self {
                    $( Metric::$variant => Some($text), )*
                    Metric::Named(_) => None,
                }
            }

            pub fn parse(s: &str) -> Metric {
                match s {
                    $( $text => Metric::$variant, )*
                    other => Metric::Named(other.to_string()),
                }
            }

            /// The unit and aggregation a known metric always has.
            pub fn known_shape(&self) -> Option<(Unit, Aggregate)> {
                match self {
                    $( Metric::$variant => Some((Unit::$unit, Aggregate::$agg)), )*
                    Metric::Named(_) => None,
                }
            }

            /// A short column heading for tables.
            pub fn label(&self) -> &str {
                match self {
                    $( Metric::$variant => $label, )*
                    Metric::Named(s) => s,
                }
            }
        }
    };
}

metrics! {
    /// Elapsed time of the sample.
    WallTime = "wall-time", Nanoseconds, Sum, "Time";
    /// CPU time in user mode (of the child, for commands).
    UserTime = "user-time", Nanoseconds, Sum, "User";
    /// CPU time in the kernel.
    SystemTime = "system-time", Nanoseconds, Sum, "Sys";
    /// Peak resident set size.
    PeakRss = "peak-rss", Bytes, Peak, "MaxRSS";
    /// CPU time in user mode and the kernel together (hyperfine 2's `time_cpu`).
    CpuTime = "cpu-time", Nanoseconds, Sum, "CPU";
    /// Heap allocations (the in-process counting allocator).
    Allocations = "allocations", Count, Sum, "Allocs";
    AllocatedBytes = "allocated-bytes", Bytes, Sum, "Alloc B";
    Instructions = "instructions", Count, Sum, "Instr";
    Cycles = "cycles", Count, Sum, "Cycles";
    Branches = "branches", Count, Sum, "Branches";
    BranchMisses = "branch-misses", Count, Sum, "Br miss";
    CacheReferences = "cache-references", Count, Sum, "Cache ref";
    CacheMisses = "cache-misses", Count, Sum, "Cache miss";
    L1dLoads = "l1d-loads", Count, Sum, "L1d ld";
    L1dLoadMisses = "l1d-load-misses", Count, Sum, "L1d miss";
    LlcLoads = "llc-loads", Count, Sum, "LLC ld";
    LlcLoadMisses = "llc-load-misses", Count, Sum, "LLC miss";
    /// Simulated (cachegrind): data reads and writes, their misses in the level-1 data
    /// cache and in the last level, conditional and indirect branches and their
    /// mispredictions.
    DataReads = "data-reads", Count, Sum, "Data rd";
    DataWrites = "data-writes", Count, Sum, "Data wr";
    D1Misses = "d1-misses", Count, Sum, "D1 miss";
    LlMisses = "ll-misses", Count, Sum, "LL miss";
    /// Simulated: misses in the level-1 instruction cache, and instruction fetches that
    /// missed the last level too.
    I1Misses = "i1-misses", Count, Sum, "I1 miss";
    LlInstructionMisses = "ll-instruction-misses", Count, Sum, "LLi miss";
    /// Simulated: cycles estimated from the simulation's instructions, cache misses at
    /// each level and branch mispredictions (plumb-counters' `Totals::estimated_cycles`).
    EstimatedCycles = "estimated-cycles", Count, Sum, "Est cyc";
    ConditionalBranches = "conditional-branches", Count, Sum, "Cond br";
    ConditionalMispredictions = "conditional-mispredictions", Count, Sum, "Mispred";
    IndirectBranches = "indirect-branches", Count, Sum, "Ind br";
    IndirectMispredictions = "indirect-mispredictions", Count, Sum, "Ind mispred";
    /// Parts per million of a sample during which the hardware counters were live: below
    /// 1,000,000 when the kernel multiplexed them (their values are then scaled up).
    HardwareLivePpm = "hardware-counters-live-ppm", Count, Peak, "HW live ppm";
    TaskClock = "task-clock", Nanoseconds, Sum, "Task clock";
    PageFaults = "page-faults", Count, Sum, "Faults";
    ContextSwitches = "context-switches", Count, Sum, "Ctx sw";
    CpuMigrations = "cpu-migrations", Count, Sum, "Migr";
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A metric as a user asks for it (`--metric`) or another harness names it: plumb's
/// names, Go's (`ns/op`, `B/op`, `allocs/op`; any other `X/op` is Go's metric X, as its
/// import stores it) or hyperfine 2's (`time_wall_clock`, `memory_peak_resident`…).
impl std::str::FromStr for Metric {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "ns/op" | "time_wall_clock" => Metric::WallTime,
            "B/op" => Metric::AllocatedBytes,
            "allocs/op" => Metric::Allocations,
            "time_cpu" => Metric::CpuTime,
            "time_user" => Metric::UserTime,
            "time_system" => Metric::SystemTime,
            "memory_peak_resident" => Metric::PeakRss,
            "cpu_cycles" => Metric::Cycles,
            "cache_references" => Metric::CacheReferences,
            "cache_misses" => Metric::CacheMisses,
            "branch_misses" => Metric::BranchMisses,
            other => match other.strip_suffix("/op") {
                Some(named) if !named.is_empty() => Metric::parse(named),
                _ => Metric::parse(other),
            },
        })
    }
}

impl Serialize for Metric {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Metric {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Metric::parse(&String::deserialize(d)?))
    }
}

/// How one benchmark's values of a metric are to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetricInfo {
    pub unit: Unit,
    pub source: Source,
    pub aggregate: Aggregate,
}

impl MetricInfo {
    /// A known metric as measured by plumb itself.
    pub fn measured(metric: &Metric) -> MetricInfo {
        Self::known(metric, Source::Measured)
    }

    /// A known metric from `source`. Panics on a `Named` metric, whose shape only its
    /// producer knows (a programming error, not an input error).
    pub fn known(metric: &Metric, source: Source) -> MetricInfo {
        let (unit, aggregate) = metric
            .known_shape()
            .unwrap_or_else(|| panic!("{metric} has no known unit; give its MetricInfo"));
        MetricInfo {
            unit,
            source,
            aggregate,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_s_name_is_the_one_results_write() {
        for u in [Unit::Nanoseconds, Unit::Bytes, Unit::Count] {
            assert_eq!(serde_json::to_value(u).unwrap(), u.as_str());
            assert_eq!(Unit::parse(u.as_str()), Some(u));
        }
        assert_eq!(Unit::parse("furlongs"), None);
    }

    #[test]
    fn names_read_back_and_unknown_ones_are_kept() {
        for m in Metric::KNOWN {
            let json = serde_json::to_string(m).unwrap();
            assert_eq!(&serde_json::from_str::<Metric>(&json).unwrap(), m);
        }
        let m: Metric = serde_json::from_str("\"l2-misses\"").unwrap();
        assert_eq!(m, Metric::Named("l2-misses".into()));
        assert_eq!(
            serde_json::to_string(&MetricInfo::measured(&Metric::PeakRss)).unwrap(),
            r#"{"unit":"bytes","source":"measured","aggregate":"peak"}"#
        );
    }
}
