//! Parsers for the kernel's text formats, kept apart so they can be tested on fixtures.

/// Parses a CPU list such as `0-3,8,10-11` (sysfs and `/proc/self/status` format).
pub fn cpu_list(s: &str) -> Vec<usize> {
    let mut cpus = Vec::new();
    for part in s.trim().split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                if let (Ok(a), Ok(b)) = (a.trim().parse::<usize>(), b.trim().parse::<usize>()) {
                    cpus.extend(a..=b);
                }
            }
            None => cpus.extend(part.trim().parse::<usize>().ok()),
        }
    }
    cpus
}

/// Parses a sysfs cache size such as `32K`, `1024K`, `32M`.
pub fn size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (digits, mult) = match s.chars().last()? {
        'K' => (&s[..s.len() - 1], 1024),
        'M' => (&s[..s.len() - 1], 1024 * 1024),
        'G' => (&s[..s.len() - 1], 1024 * 1024 * 1024),
        _ => (s, 1),
    };
    digits.parse::<u64>().ok().map(|n| n * mult)
}

/// What `/proc/cpuinfo` says: model name, logical CPUs, physical cores, hypervisor flag.
#[derive(Debug, Default, PartialEq)]
pub struct CpuInfo {
    pub model: Option<String>,
    pub mhz: Option<f64>,
    pub threads: Option<usize>,
    pub cores: Option<usize>,
    pub hypervisor_flag: bool,
}

pub fn cpuinfo(text: &str) -> CpuInfo {
    let mut info = CpuInfo::default();
    let mut threads = 0;
    let mut physical = std::collections::BTreeSet::new();
    let mut package = String::new();
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        match key {
            "processor" => threads += 1,
            "model name" if info.model.is_none() => info.model = Some(value.to_string()),
            "cpu MHz" if info.mhz.is_none() => info.mhz = value.parse().ok(),
            "physical id" => package = value.to_string(),
            "core id" => {
                physical.insert((package.clone(), value.to_string()));
            }
            "flags" => info.hypervisor_flag |= value.split_whitespace().any(|f| f == "hypervisor"),
            _ => {}
        }
    }
    info.threads = (threads > 0).then_some(threads);
    info.cores = if physical.is_empty() {
        info.threads
    } else {
        Some(physical.len())
    };
    info
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists() {
        assert_eq!(cpu_list("0-3,8,10-11\n"), vec![0, 1, 2, 3, 8, 10, 11]);
        assert_eq!(cpu_list(""), Vec::<usize>::new());
        assert_eq!(cpu_list("5"), vec![5]);
    }

    #[test]
    fn sizes() {
        assert_eq!(size("32K"), Some(32 * 1024));
        assert_eq!(size("16M\n"), Some(16 * 1024 * 1024));
        assert_eq!(size("bogus"), None);
    }

    #[test]
    fn cpuinfo_counts_cores_per_package() {
        let text = "processor\t: 0\nmodel name\t: Test CPU @ 3.0GHz\ncpu MHz\t\t: 2994.372\nphysical id\t: 0\ncore id\t: 0\nflags\t: fpu hypervisor sse\n\n\
                    processor\t: 1\nmodel name\t: Test CPU @ 3.0GHz\nphysical id\t: 0\ncore id\t: 0\n\n\
                    processor\t: 2\nmodel name\t: Test CPU @ 3.0GHz\nphysical id\t: 1\ncore id\t: 0\n";
        let info = cpuinfo(text);
        assert_eq!(info.model.as_deref(), Some("Test CPU @ 3.0GHz"));
        assert_eq!(info.threads, Some(3));
        assert_eq!(info.mhz, Some(2994.372));
        assert_eq!(info.cores, Some(2));
        assert!(info.hypervisor_flag);
    }
}
