use crate::parse;
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

pub fn memory_bytes() -> Option<u64> {
    let text = fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
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

/// The hypervisor or container, from `systemd-detect-virt` when present, else from the
/// DMI vendor strings and the CPU's hypervisor flag.
pub fn virtualization(hypervisor_flag: bool) -> Option<String> {
    if let Ok(out) = std::process::Command::new("systemd-detect-virt")
        .stderr(std::process::Stdio::null())
        .output()
    {
        let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !v.is_empty() {
            return (v != "none").then_some(v);
        }
    }
    if Path::new("/.dockerenv").exists() || Path::new("/run/.containerenv").exists() {
        return Some("container".to_string());
    }
    let vendor = read_trimmed("/sys/class/dmi/id/sys_vendor").unwrap_or_default();
    let product = read_trimmed("/sys/class/dmi/id/product_name").unwrap_or_default();
    let known = [
        ("QEMU", "qemu"),
        ("KVM", "kvm"),
        ("VMware", "vmware"),
        ("VirtualBox", "oracle"),
        ("Microsoft Corporation", "microsoft"),
        ("Amazon EC2", "amazon"),
        ("Google", "google"),
        ("Xen", "xen"),
    ];
    for (needle, name) in known {
        if vendor.contains(needle) || product.contains(needle) {
            return Some(name.to_string());
        }
    }
    hypervisor_flag.then(|| "unknown hypervisor".to_string())
}
