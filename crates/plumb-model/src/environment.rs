//! The environment record in the result model: the machine a result was measured on.
use crate::quantity::ByteSize;
use serde::{Deserialize, Serialize};

/// A record of the machine a result was measured on. Every field is optional: what could
/// not be read is absent rather than guessed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Environment {
    pub hostname: Option<String>,
    pub os: Option<String>,
    pub kernel: Option<String>,
    pub arch: Option<String>,
    pub cpu_model: Option<String>,
    /// Current clock of CPU 0 as `/proc/cpuinfo` reports it, MHz.
    #[serde(default)]
    pub cpu_mhz: Option<f64>,
    /// Physical cores and hardware threads (logical CPUs).
    pub cores: Option<usize>,
    pub threads: Option<usize>,
    #[serde(default)]
    pub caches: Vec<CacheLevel>,
    /// The data TLBs (4 KiB pages), where the CPU reports them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tlbs: Vec<TlbLevel>,
    /// Physical memory.
    pub memory: Option<ByteSize>,
    pub numa_nodes: Option<usize>,
    /// The scaling governor of each online CPU, deduplicated (`performance`, `powersave`…).
    #[serde(default)]
    pub governors: Vec<String>,
    /// `Some(true)` when turbo / boost is enabled.
    pub turbo: Option<bool>,
    /// `/proc/sys/kernel/randomize_va_space`: 0 off, 1 partial, 2 full.
    pub aslr: Option<u8>,
    /// 1, 5 and 15 minute load averages when the record was taken.
    pub load_average: Option<[f64; 3]>,
    /// Hypervisor or container, e.g. `kvm`; `None` when none was detected.
    pub virtualization: Option<String>,
    /// Logical CPUs this process may run on.
    #[serde(default)]
    pub affinity: Vec<usize>,
    /// CPUs isolated from the scheduler (`isolcpus=`), if any.
    #[serde(default)]
    pub isolated_cpus: Vec<usize>,
    pub smt_active: Option<bool>,
    pub clock_source: Option<String>,
    pub perf_event_paranoid: Option<i32>,
    /// Which event counters open here; absent when not probed (older records, imports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counters: Option<CounterAvailability>,
}

impl Environment {
    /// Whether any of the CPU's counters opened here (false where unprobed).
    /// The largest data (or unified) cache: the last level a working set can live in.
    pub fn last_level_cache(&self) -> Option<&CacheLevel> {
        (self.caches.iter())
            .filter(|c| c.kind != "Instruction")
            .max_by_key(|c| (c.level, c.size))
    }

    pub fn hardware_counters_open(&self) -> bool {
        self.counters
            .as_ref()
            .is_some_and(|c| !c.hardware.is_empty())
    }
}

/// Which of plumb's counter events `perf_event_open` accepts on this machine, for this
/// process, and why the others are refused.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CounterAvailability {
    /// Event names as `perf` spells them, counted by the CPU's PMU (`cycles`…) and by
    /// the kernel (`task-clock`…).
    pub hardware: Vec<String>,
    pub software: Vec<String>,
    pub missing: Vec<MissingCounter>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MissingCounter {
    pub event: String,
    /// Counted by the CPU's PMU (rather than by the kernel).
    pub hardware: bool,
    pub why: MissingWhy,
    /// The system's own words (`No such file or directory (os error 2)`).
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MissingWhy {
    /// The CPU, or the hypervisor in front of it, exposes no such event (ENOENT,
    /// EOPNOTSUPP, ENODEV).
    NotSupported,
    /// The kernel refuses: `perf_event_paranoid`, or no CAP_PERFMON (EACCES, EPERM).
    Forbidden,
    /// The kernel has no perf_event_open (ENOSYS), e.g. under a seccomp filter.
    NoSyscall,
    Error,
    /// This plumb was built without perf_event_open (plumb-counters without `perf`: the
    /// harness without its `hardware-counters` feature).
    NotBuilt,
}

/// A data TLB: its entries for one page size (issue 24, defect 18: its reach is an edge a
/// working-set sweep can step over).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TlbLevel {
    pub level: u8,
    /// Entries for pages of `page_size`.
    pub entries: u32,
    pub page_size: ByteSize,
}

impl TlbLevel {
    /// How much memory its entries translate: entries × page size.
    pub fn reach(&self) -> ByteSize {
        ByteSize(self.entries as u64 * self.page_size.0)
    }
}

/// One cache level as the kernel describes it (`/sys/devices/system/cpu/cpu0/cache`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheLevel {
    pub level: u8,
    /// `Data`, `Instruction` or `Unified`.
    pub kind: String,
    pub size: ByteSize,
    /// How many logical CPUs share one instance of it.
    pub shared_by: Option<usize>,
    /// Associativity and line size, for a cache simulator's geometry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ways: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_size: Option<ByteSize>,
}

impl CacheLevel {
    /// A cache of this level, kind and size, its geometry unknown.
    pub fn of_size(level: u8, kind: &str, size: ByteSize) -> Self {
        CacheLevel {
            level,
            kind: kind.into(),
            size,
            shared_by: None,
            ways: None,
            line_size: None,
        }
    }
}
