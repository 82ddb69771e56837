//! The counter events plumb counts: each one's kind (hardware or software), name and result metric.
#[cfg(feature = "perf")]
use perf_event::events::{Cache, CacheId, CacheOp, CacheResult, Hardware, Software};
#[cfg(feature = "perf")]
use perf_event::Builder;
use plumb_model::{Metric, Source};

/// Whether an event is counted by the CPU's performance monitoring unit or by the kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    Hardware,
    Software,
}

/// The events plumb counts, each recorded as a metric of the result model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CounterEvent {
    Cycles,
    Instructions,
    Branches,
    BranchMisses,
    CacheReferences,
    CacheMisses,
    L1dLoads,
    L1dLoadMisses,
    LlcLoads,
    LlcLoadMisses,
    TaskClock,
    ContextSwitches,
    CpuMigrations,
    PageFaults,
}

impl CounterEvent {
    pub const ALL: [CounterEvent; 14] = [
        CounterEvent::Cycles,
        CounterEvent::Instructions,
        CounterEvent::Branches,
        CounterEvent::BranchMisses,
        CounterEvent::CacheReferences,
        CounterEvent::CacheMisses,
        CounterEvent::L1dLoads,
        CounterEvent::L1dLoadMisses,
        CounterEvent::LlcLoads,
        CounterEvent::LlcLoadMisses,
        CounterEvent::TaskClock,
        CounterEvent::ContextSwitches,
        CounterEvent::CpuMigrations,
        CounterEvent::PageFaults,
    ];

    /// The metric this event's counts are recorded as.
    pub fn metric(self) -> Metric {
        match self {
            CounterEvent::Cycles => Metric::Cycles,
            CounterEvent::Instructions => Metric::Instructions,
            CounterEvent::Branches => Metric::Branches,
            CounterEvent::BranchMisses => Metric::BranchMisses,
            CounterEvent::CacheReferences => Metric::CacheReferences,
            CounterEvent::CacheMisses => Metric::CacheMisses,
            CounterEvent::L1dLoads => Metric::L1dLoads,
            CounterEvent::L1dLoadMisses => Metric::L1dLoadMisses,
            CounterEvent::LlcLoads => Metric::LlcLoads,
            CounterEvent::LlcLoadMisses => Metric::LlcLoadMisses,
            CounterEvent::TaskClock => Metric::TaskClock,
            CounterEvent::ContextSwitches => Metric::ContextSwitches,
            CounterEvent::CpuMigrations => Metric::CpuMigrations,
            CounterEvent::PageFaults => Metric::PageFaults,
        }
    }

    pub fn of_metric(m: &Metric) -> Option<CounterEvent> {
        CounterEvent::ALL.into_iter().find(|e| e.metric() == *m)
    }

    /// The metric's name (`branch-misses`, `l1d-load-misses`, `task-clock`…).
    pub fn name(self) -> &'static str {
        self.metric()
            .known_name()
            .expect("every counter metric is a known metric")
    }

    /// Where the result model says a count of this event came from.
    pub fn source(self) -> Source {
        match self.kind() {
            EventKind::Hardware => Source::HardwareCounter,
            EventKind::Software => Source::SoftwareCounter,
        }
    }

    pub fn kind(self) -> EventKind {
        match self {
            CounterEvent::TaskClock
            | CounterEvent::ContextSwitches
            | CounterEvent::CpuMigrations
            | CounterEvent::PageFaults => EventKind::Software,
            _ => EventKind::Hardware,
        }
    }

    /// A builder for this event on the calling process, user space only (the kernel's
    /// and the hypervisor's work is not the benchmark's), disabled until the group is
    /// enabled.
    #[cfg(feature = "perf")]
    pub(crate) fn builder(self) -> Builder<'static> {
        let cache = |which, result| Cache {
            which,
            operation: CacheOp::READ,
            result,
        };
        let mut b = match self {
            CounterEvent::Cycles => Builder::new(Hardware::CPU_CYCLES),
            CounterEvent::Instructions => Builder::new(Hardware::INSTRUCTIONS),
            CounterEvent::Branches => Builder::new(Hardware::BRANCH_INSTRUCTIONS),
            CounterEvent::BranchMisses => Builder::new(Hardware::BRANCH_MISSES),
            CounterEvent::CacheReferences => Builder::new(Hardware::CACHE_REFERENCES),
            CounterEvent::CacheMisses => Builder::new(Hardware::CACHE_MISSES),
            CounterEvent::L1dLoads => Builder::new(cache(CacheId::L1D, CacheResult::ACCESS)),
            CounterEvent::L1dLoadMisses => Builder::new(cache(CacheId::L1D, CacheResult::MISS)),
            CounterEvent::LlcLoads => Builder::new(cache(CacheId::LL, CacheResult::ACCESS)),
            CounterEvent::LlcLoadMisses => Builder::new(cache(CacheId::LL, CacheResult::MISS)),
            CounterEvent::TaskClock => Builder::new(Software::TASK_CLOCK),
            CounterEvent::ContextSwitches => Builder::new(Software::CONTEXT_SWITCHES),
            CounterEvent::CpuMigrations => Builder::new(Software::CPU_MIGRATIONS),
            CounterEvent::PageFaults => Builder::new(Software::PAGE_FAULTS),
        };
        b.exclude_kernel(true).exclude_hv(true);
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_models_and_unique() {
        let mut names: Vec<&str> = CounterEvent::ALL.iter().map(|e| e.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CounterEvent::ALL.len());
        assert_eq!(CounterEvent::BranchMisses.name(), "branch-misses");
        assert_eq!(CounterEvent::L1dLoadMisses.name(), "l1d-load-misses");
        assert_eq!(CounterEvent::PageFaults.kind(), EventKind::Software);
    }
}
