//! The system part of the environment record: OS, memory, NUMA nodes, load average, CPU affinity.
use crate::parse;
use plumb_model::quantity::ByteSize;
use std::fs;
use std::path::Path;

pub fn read_trimmed(path: impl AsRef<Path>) -> Option<String> {
    fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

pub fn os_name() -> Option<String> {
    let text = fs::read_to_string("/etc/os-release").ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix("PRETTY_NAME="))
        .map(|v| v.trim_matches('"').to_string())
        .or_else(|| Some(std::env::consts::OS.to_string()))
}

/// Physical memory (`MemTotal`).
pub fn memory() -> Option<ByteSize> {
    let text = fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(ByteSize(kib * 1024))
}

pub fn numa_nodes() -> Option<usize> {
    read_trimmed("/sys/devices/system/node/online").map(|s| parse::cpu_list(&s).len())
}

pub fn load_average() -> Option<[f64; 3]> {
    let text = read_trimmed("/proc/loadavg")?;
    let mut it = text.split_whitespace().map(|f| f.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

pub fn affinity() -> Vec<usize> {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
                .map(parse::cpu_list)
        })
        .unwrap_or_default()
}
