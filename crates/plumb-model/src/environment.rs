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
    pub memory_bytes: Option<u64>,
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
}

/// One cache level as the kernel describes it (`/sys/devices/system/cpu/cpu0/cache`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheLevel {
    pub level: u8,
    /// `Data`, `Instruction` or `Unified`.
    pub kind: String,
    pub size_bytes: u64,
    /// How many logical CPUs share one instance of it.
    pub shared_by: Option<usize>,
}
