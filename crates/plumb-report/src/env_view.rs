//! `plumb env`: the machine record as aligned rows, then what on it makes numbers noisy.

use crate::terminal::render_diagnostics;
use plumb_model::{Diagnostic, Environment};

/// The record, and the diagnostics about it (or that none were found).
pub fn render_environment(env: &Environment, diagnostics: &[Diagnostic]) -> String {
    let mut out: String = record_rows(env)
        .iter()
        .map(|(k, v)| format!("{k:>20}  {v}\n"))
        .collect();
    if diagnostics.is_empty() {
        out.push_str("\nNo known source of noise found.\n");
    } else {
        out.push_str("\nWhat makes numbers noisy here:\n");
        out.push_str(&render_diagnostics(diagnostics, 2));
    }
    out
}

fn known<T>(v: Option<T>, show: impl FnOnce(T) -> String) -> String {
    v.map_or_else(|| "unknown".to_string(), show)
}

fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

fn cpus(v: &[usize]) -> String {
    if v.is_empty() {
        "none".to_string()
    } else {
        v.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
    }
}

fn caches(env: &Environment) -> String {
    let caches: Vec<String> = env
        .caches
        .iter()
        .map(|c| {
            let shared = c
                .shared_by
                .map_or(String::new(), |s| format!(" (shared by {s})"));
            format!(
                "L{} {} {} KiB{shared}",
                c.level,
                c.kind.to_lowercase(),
                c.size_bytes / 1024
            )
        })
        .collect();
    if caches.is_empty() {
        "unknown".into()
    } else {
        caches.join(", ")
    }
}

fn record_rows(env: &Environment) -> Vec<(&'static str, String)> {
    let text = |v: &Option<String>| known(v.clone(), |s| s);
    let count = |v: Option<usize>| v.map_or("?".into(), |c| c.to_string());
    let governors = if env.governors.is_empty() {
        "unknown (no cpufreq)".into()
    } else {
        env.governors.join(", ")
    };
    vec![
        ("host", text(&env.hostname)),
        ("os", text(&env.os)),
        ("kernel", text(&env.kernel)),
        ("cpu", text(&env.cpu_model)),
        (
            "cores / threads",
            format!("{} / {}", count(env.cores), count(env.threads)),
        ),
        ("caches", caches(env)),
        (
            "memory",
            known(env.memory_bytes, |m| {
                format!("{:.1} GiB", m as f64 / (1u64 << 30) as f64)
            }),
        ),
        ("numa nodes", known(env.numa_nodes, |n| n.to_string())),
        ("governor", governors),
        ("turbo", known(env.turbo, on_off)),
        ("aslr", known(env.aslr, |a| a.to_string())),
        (
            "load average",
            known(env.load_average, |l| {
                format!("{:.2} {:.2} {:.2}", l[0], l[1], l[2])
            }),
        ),
        (
            "virtualization",
            env.virtualization
                .clone()
                .unwrap_or_else(|| "none detected".into()),
        ),
        ("affinity", cpus(&env.affinity)),
        ("isolated cpus", cpus(&env.isolated_cpus)),
        ("smt", known(env.smt_active, on_off)),
        ("clock source", text(&env.clock_source)),
        (
            "perf_event_paranoid",
            known(env.perf_event_paranoid, |p| p.to_string()),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_fields_say_so_and_known_ones_align() {
        let env = Environment {
            hostname: Some("box".into()),
            cores: Some(2),
            turbo: Some(false),
            affinity: vec![0, 1],
            ..Default::default()
        };
        let out = render_environment(&env, &[]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "                host  box");
        assert!(out.contains("     cores / threads  2 / ?\n"), "{out}");
        assert!(out.contains("               turbo  off\n"), "{out}");
        assert!(out.contains("            affinity  0,1\n"), "{out}");
        assert!(out.contains("              kernel  unknown\n"), "{out}");
        assert!(out.ends_with("No known source of noise found.\n"), "{out}");
    }
}
