//! Virtualisation detection without starting a process. `systemd-detect-virt` knows more
//! cases, but starting it (a dynamically linked binary with ~20 libraries) costs 5–15 ms,
//! which was a third of a quick in-process run; the checks that matter here are files and
//! one CPUID leaf. A container is reported with the hypervisor under it when both are
//! seen ("docker on kvm"): both add noise, and a reader wants to know of each.

use std::path::Path;

/// The container and/or hypervisor this process runs in, or None on bare metal.
pub fn detect(hypervisor_flag: bool) -> Option<String> {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let exists = |p: &str| Path::new(p).exists();
    let container = container(&read, &exists);
    let vm = hypervisor_flag
        .then(|| {
            cpuid_signature()
                .and_then(|s| hypervisor_name(&s))
                .map(str::to_string)
        })
        .flatten()
        .or_else(|| dmi_vm(&read))
        .or_else(|| hypervisor_flag.then(|| "unknown hypervisor".to_string()));
    match (container, vm) {
        (Some(c), Some(v)) => Some(format!("{c} on {v}")),
        (c, v) => c.or(v),
    }
}

/// The container runtime, from the markers runtimes leave (the order systemd uses).
fn container(
    read: &dyn Fn(&str) -> Option<String>,
    exists: &dyn Fn(&str) -> bool,
) -> Option<String> {
    let from_environ = read("/proc/1/environ").and_then(|env| {
        env.split('\0')
            .find_map(|kv| kv.strip_prefix("container="))
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    });
    if from_environ.is_some() {
        return from_environ;
    }
    if let Some(v) = read("/run/systemd/container").map(|s| s.trim().to_string()) {
        if !v.is_empty() {
            return Some(v);
        }
    }
    if exists("/run/.containerenv") {
        return Some("podman".into());
    }
    if exists("/.dockerenv") {
        return Some("docker".into());
    }
    if exists("/proc/vz") && !exists("/proc/bc") {
        return Some("openvz".into());
    }
    let release = read("/proc/sys/kernel/osrelease").unwrap_or_default();
    if release.contains("Microsoft") || release.contains("WSL") {
        return Some("wsl".into());
    }
    None
}

/// The hypervisor's CPUID vendor signature (leaf 0x4000_0000), as systemd maps them.
fn hypervisor_name(signature: &[u8; 12]) -> Option<&'static str> {
    const KNOWN: [(&[u8], &str); 12] = [
        (b"KVMKVMKVM\0\0\0", "kvm"),
        (b"Linux KVM Hv", "kvm"),
        (b"TCGTCGTCGTCG", "qemu"),
        (b"Microsoft Hv", "microsoft"),
        (b"VMwareVMware", "vmware"),
        (b"XenVMMXenVMM", "xen"),
        (b"bhyve bhyve ", "bhyve"),
        (b"ACRNACRNACRN", "acrn"),
        (b"QNXQVMBSQG\0\0", "qnx"),
        (b"VBoxVBoxVBox", "oracle"),
        (b"prl hyperv  ", "parallels"),
        (b" lrpepyh  vr", "parallels"),
    ];
    KNOWN
        .iter()
        .find(|(sig, _)| *sig == signature.as_slice())
        .map(|(_, name)| *name)
}

#[cfg(target_arch = "x86_64")]
fn cpuid_signature() -> Option<[u8; 12]> {
    // Leaf 0x4000_0000 is asked for only when the hypervisor bit is set.
    let r = std::arch::x86_64::__cpuid(0x4000_0000);
    let mut sig = [0u8; 12];
    sig[..4].copy_from_slice(&r.ebx.to_le_bytes());
    sig[4..8].copy_from_slice(&r.ecx.to_le_bytes());
    sig[8..].copy_from_slice(&r.edx.to_le_bytes());
    Some(sig)
}

#[cfg(not(target_arch = "x86_64"))]
fn cpuid_signature() -> Option<[u8; 12]> {
    None
}

/// The hypervisor named by the DMI vendor strings (firmware tables; missing in many
/// containers).
fn dmi_vm(read: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let vendor = read("/sys/class/dmi/id/sys_vendor").unwrap_or_default();
    let product = read("/sys/class/dmi/id/product_name").unwrap_or_default();
    const KNOWN: [(&str, &str); 8] = [
        ("QEMU", "qemu"),
        ("KVM", "kvm"),
        ("VMware", "vmware"),
        ("VirtualBox", "oracle"),
        ("Microsoft Corporation", "microsoft"),
        ("Amazon EC2", "amazon"),
        ("Google", "google"),
        ("Xen", "xen"),
    ];
    KNOWN
        .iter()
        .find(|(needle, _)| vendor.contains(needle) || product.contains(needle))
        .map(|(_, name)| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn files(entries: &[(&str, &str)]) -> HashMap<String, String> {
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn container_of(fs: &HashMap<String, String>) -> Option<String> {
        container(&|p| fs.get(p).cloned(), &|p| fs.contains_key(p))
    }

    #[test]
    fn names_the_container_runtime() {
        assert_eq!(
            container_of(&files(&[("/.dockerenv", "")])).as_deref(),
            Some("docker")
        );
        assert_eq!(
            container_of(&files(&[("/run/.containerenv", ""), ("/.dockerenv", "")])).as_deref(),
            Some("podman")
        );
        assert_eq!(
            container_of(&files(&[("/proc/1/environ", "PATH=/bin\0container=lxc\0")])).as_deref(),
            Some("lxc")
        );
        assert_eq!(
            container_of(&files(&[("/run/systemd/container", "systemd-nspawn\n")])).as_deref(),
            Some("systemd-nspawn")
        );
        assert_eq!(
            container_of(&files(&[(
                "/proc/sys/kernel/osrelease",
                "5.15.0-microsoft-WSL2"
            )]))
            .as_deref(),
            Some("wsl")
        );
        assert_eq!(
            container_of(&files(&[("/proc/sys/kernel/osrelease", "6.1.0")])),
            None
        );
    }

    #[test]
    fn maps_hypervisor_signatures() {
        assert_eq!(hypervisor_name(b"KVMKVMKVM\0\0\0"), Some("kvm"));
        assert_eq!(hypervisor_name(b"Microsoft Hv"), Some("microsoft"));
        assert_eq!(hypervisor_name(b"GenuineIntel"), None);
    }

    #[test]
    fn dmi_strings_name_the_cloud() {
        let fs = files(&[("/sys/class/dmi/id/sys_vendor", "Amazon EC2\n")]);
        assert_eq!(dmi_vm(&|p| fs.get(p).cloned()).as_deref(), Some("amazon"));
        assert_eq!(dmi_vm(&|_| None), None);
    }
}
