use perf_event::events::{Cache, CacheId, CacheOp, CacheResult, Hardware, Software};
use perf_event::Builder;

/// Whether an event is counted by the CPU's performance monitoring unit or by the kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    Hardware,
    Software,
}

/// The events plumb counts. Their names are the metric names in results, as `perf`
/// spells them.
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

    pub fn name(self) -> &'static str {
        match self {
            CounterEvent::Cycles => "cycles",
            CounterEvent::Instructions => "instructions",
            CounterEvent::Branches => "branches",
            CounterEvent::BranchMisses => "branch-misses",
            CounterEvent::CacheReferences => "cache-references",
            CounterEvent::CacheMisses => "cache-misses",
            CounterEvent::L1dLoads => "L1-dcache-loads",
            CounterEvent::L1dLoadMisses => "L1-dcache-load-misses",
            CounterEvent::LlcLoads => "LLC-loads",
            CounterEvent::LlcLoadMisses => "LLC-load-misses",
            CounterEvent::TaskClock => "task-clock",
            CounterEvent::ContextSwitches => "context-switches",
            CounterEvent::CpuMigrations => "cpu-migrations",
            CounterEvent::PageFaults => "page-faults",
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
    fn names_are_perfs_and_unique() {
        let mut names: Vec<&str> = CounterEvent::ALL.iter().map(|e| e.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CounterEvent::ALL.len());
        assert_eq!(CounterEvent::BranchMisses.name(), "branch-misses");
        assert_eq!(CounterEvent::PageFaults.kind(), EventKind::Software);
    }
}
