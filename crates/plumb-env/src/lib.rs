//! The environment record: what machine a number was measured on. Linux reads `/proc`
//! and `/sys`; anything unreadable is left out rather than guessed.

mod cpu;
mod parse;
mod system;
mod tlb;
mod virt;
#[cfg(feature = "workload")]
mod workload;

#[cfg(feature = "workload")]
pub use workload::{read_workload, workload_for_run, WorkloadError};

use plumb_model::Environment;

/// Reads the environment record of this machine and process now.
pub fn collect() -> Environment {
    let cpu = cpu::read();
    Environment {
        hostname: system::read_trimmed("/proc/sys/kernel/hostname"),
        os: system::os_name(),
        kernel: system::read_trimmed("/proc/sys/kernel/osrelease"),
        arch: Some(std::env::consts::ARCH.to_string()),
        cpu_model: cpu.model,
        cpu_mhz: cpu.mhz,
        cores: cpu.cores,
        threads: cpu.threads,
        caches: cpu::caches(),
        tlbs: tlb::data_tlbs(),
        memory: system::memory(),
        numa_nodes: system::numa_nodes(),
        governors: cpu::governors(),
        turbo: cpu::turbo(),
        aslr: system::read_trimmed("/proc/sys/kernel/randomize_va_space")
            .and_then(|s| s.parse().ok()),
        load_average: system::load_average(),
        virtualization: virt::detect(cpu.hypervisor_flag),
        affinity: system::affinity(),
        isolated_cpus: system::read_trimmed("/sys/devices/system/cpu/isolated")
            .map(|s| parse::cpu_list(&s))
            .unwrap_or_default(),
        smt_active: system::read_trimmed("/sys/devices/system/cpu/smt/active").map(|s| s == "1"),
        clock_source: system::read_trimmed(
            "/sys/devices/system/clocksource/clocksource0/current_clocksource",
        ),
        perf_event_paranoid: system::read_trimmed("/proc/sys/kernel/perf_event_paranoid")
            .and_then(|s| s.parse().ok()),
        counters: Some(plumb_counters::availability()),
    }
}

/// Clock sources the kernel offers, for advice on switching.
pub fn available_clock_sources() -> Vec<String> {
    system::read_trimmed("/sys/devices/system/clocksource/clocksource0/available_clocksource")
        .map(|s| s.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(target_os = "linux")]
    fn reads_this_linux_machine() {
        let env = super::collect();
        assert!(env.threads.unwrap_or(0) >= 1, "{env:?}");
        assert!(env.memory.unwrap_or_default().0 > 0);
        assert!(!env.affinity.is_empty());
        assert!(env.kernel.is_some());
    }
}
