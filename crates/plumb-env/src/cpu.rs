//! The CPU part of the environment record: `/proc/cpuinfo`, caches, frequency governors, turbo.
use crate::parse;
use crate::system::read_trimmed;
use plumb_model::quantity::ByteSize;
use plumb_model::CacheLevel;
use std::fs;

pub fn read() -> parse::CpuInfo {
    fs::read_to_string("/proc/cpuinfo")
        .map(|t| parse::cpuinfo(&t))
        .unwrap_or_default()
}

/// Caches of CPU 0, as the kernel lists them.
pub fn caches() -> Vec<CacheLevel> {
    let mut caches = Vec::new();
    let Ok(dir) = fs::read_dir("/sys/devices/system/cpu/cpu0/cache") else {
        return caches;
    };
    for entry in dir.flatten() {
        let path = entry.path();
        if !path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("index"))
        {
            continue;
        }
        let get = |f: &str| read_trimmed(path.join(f));
        let (Some(level), Some(kind), Some(size)) = (
            get("level").and_then(|l| l.parse().ok()),
            get("type"),
            get("size").and_then(|s| parse::size(&s)),
        ) else {
            continue;
        };
        caches.push(CacheLevel {
            level,
            kind,
            size: ByteSize(size),
            shared_by: get("shared_cpu_list").map(|l| parse::cpu_list(&l).len()),
            ways: get("ways_of_associativity").and_then(|w| w.parse().ok()),
            line_size: get("coherency_line_size")
                .and_then(|l| l.parse().ok())
                .map(ByteSize),
        });
    }
    caches.sort_by(|a, b| (a.level, &a.kind).cmp(&(b.level, &b.kind)));
    caches
}

pub fn governors() -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let Ok(dir) = fs::read_dir("/sys/devices/system/cpu") else {
        return found;
    };
    for entry in dir.flatten() {
        if let Some(g) = read_trimmed(entry.path().join("cpufreq/scaling_governor")) {
            if !found.contains(&g) {
                found.push(g);
            }
        }
    }
    found.sort();
    found
}

pub fn turbo() -> Option<bool> {
    if let Some(no_turbo) = read_trimmed("/sys/devices/system/cpu/intel_pstate/no_turbo") {
        return Some(no_turbo == "0");
    }
    read_trimmed("/sys/devices/system/cpu/cpufreq/boost").map(|b| b == "1")
}
