//! `plumb env`: the machine record as aligned rows, then what on it makes numbers noisy.

use crate::terminal::render_diagnostics;
use plumb_model::format;
use plumb_model::{
    Diagnostic, Environment, MissingCounter, MissingWhy, SimulatedCache, SimulatedCaches,
};

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

/// The machine record alone, without its findings (`plumb show --environment`, whose
/// report already lists them).
pub fn render_environment_record(env: &Environment) -> String {
    record_rows(env)
        .iter()
        .map(|(k, v)| format!("{k:>20}  {v}\n"))
        .collect()
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
                "L{} {} {}{shared}",
                c.level,
                c.kind.to_lowercase(),
                format::bytes(c.size)
            )
        })
        .collect();
    if caches.is_empty() {
        "unknown".into()
    } else {
        caches.join(", ")
    }
}

/// The data TLBs: entries for 4 KiB pages and the memory they reach.
fn tlbs(env: &Environment) -> String {
    if env.tlbs.is_empty() {
        return "not reported by this CPU".into();
    }
    env.tlbs
        .iter()
        .map(|t| {
            format!(
                "L{} dTLB {} entries × {} = {} reach",
                t.level,
                t.entries,
                format::bytes(t.page_size),
                format::bytes(t.reach())
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn record_rows(env: &Environment) -> Vec<(&'static str, String)> {
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
        ("tlbs", tlbs(env)),
        ("memory", known(env.memory, format::bytes)),
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
        ("hardware counters", counters(env, true)),
        ("software counters", counters(env, false)),
    ]
}

/// The one line a run with counters prints when hardware counters are missing here:
/// why, and what is counted instead (`simulation`, when the run simulates them, says
/// how); `None` when hardware counters are available.
fn counter_notice(env: &Environment, simulation: Option<&str>) -> Option<String> {
    let c = env.counters.as_ref()?;
    if env.hardware_counters_open() {
        return None;
    }
    let hardware = counters(env, true);
    let software = if c.software.is_empty() {
        format!("no software events either ({})", counters(env, false))
    } else {
        format!(
            "the kernel's software events in every run ({})",
            c.software.join(", ")
        )
    };
    Some(match simulation {
        Some(sim) => format!(
            "hardware counters are {hardware}; counting {software}, and simulating the rest: {sim}"
        ),
        None => format!("hardware counters are {hardware}; counting {software} only"),
    })
}

/// Which hardware counters open here, or why none do (as `plumb env` says it).
pub fn hardware_counters(env: &Environment) -> String {
    counters(env, true)
}

/// The lines a run with counters prints before it starts: which counters are missing
/// here and why, and what is done instead (`simulation`, from [`simulation_summary`],
/// when counters are simulated; `cannot_simulate` when they should be and cannot).
pub fn counting_notices(
    env: &Environment,
    simulated_on_request: bool,
    simulation: Option<&str>,
    cannot_simulate: Option<&str>,
) -> Vec<String> {
    let mut notices = Vec::new();
    if simulated_on_request && env.hardware_counters_open() {
        notices.push(format!(
            "hardware counters are available here but simulated ones were asked for: {}",
            simulation.unwrap_or_default()
        ));
    } else if let Some(line) = counter_notice(env, simulation) {
        notices.push(line);
    }
    if let Some(why) = cannot_simulate {
        notices.push(format!("cannot simulate counters: {why}"));
    }
    notices
}

/// How a run simulates counters, for the notice: the simulator, the caches it was given
/// and `how` it runs ("cachegrind (valgrind-3.19.0) with this machine's caches (I1 32 KiB
/// 8-way, …), once per command after the timed runs").
pub fn simulation_summary(tool: &str, caches: &SimulatedCaches, how: &str) -> String {
    let one =
        |name: &str, c: &SimulatedCache| format!("{name} {} {}-way", format::bytes(c.size), c.ways);
    format!(
        "{tool} with this machine's caches ({}, {}, {}), {how}",
        one("I1", &caches.i1),
        one("D1", &caches.d1),
        one("LL", &caches.ll)
    )
}

/// Which counters of one kind open here, or why none do: "not available: the CPU or the
/// hypervisor exposes none (cycles: No such file or directory (os error 2))".
fn counters(env: &Environment, hardware: bool) -> String {
    let Some(c) = &env.counters else {
        return "not probed".into();
    };
    let missing: Vec<&MissingCounter> = c
        .missing
        .iter()
        .filter(|m| m.hardware == hardware)
        .collect();
    let open = if hardware { &c.hardware } else { &c.software };
    let why = |m: &MissingCounter| match m.why {
        MissingWhy::NotSupported => "the CPU or the hypervisor exposes none",
        MissingWhy::Forbidden => "the kernel forbids it (perf_event_paranoid, or no CAP_PERFMON)",
        MissingWhy::NoSyscall => "perf_event_open is not available (seccomp or an old kernel)",
        MissingWhy::Error => "perf_event_open failed",
        MissingWhy::NotBuilt => {
            "this build has no perf_event_open (plumb-bench's hardware-counters feature)"
        }
    };
    match (open.is_empty(), missing.first()) {
        (true, Some(m)) => format!("not available: {} ({}: {})", why(m), m.event, m.detail),
        (true, None) => "none".into(),
        (false, None) => open.join(", "),
        (false, Some(_)) => format!(
            "{}; missing: {}",
            open.join(", "),
            missing
                .iter()
                .map(|m| m.event.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::CounterAvailability;

    fn with(c: CounterAvailability) -> Environment {
        Environment {
            counters: Some(c),
            ..Default::default()
        }
    }

    fn missing(event: &str, hardware: bool, why: MissingWhy, detail: &str) -> MissingCounter {
        MissingCounter {
            event: event.into(),
            hardware,
            why,
            detail: detail.into(),
        }
    }

    /// This machine's case: a KVM guest with no PMU, software events working.
    #[test]
    fn no_pmu_is_said_with_the_reason_and_software_events_are_listed() {
        let env = with(CounterAvailability {
            hardware: vec![],
            software: vec!["task-clock".into(), "page-faults".into()],
            missing: vec![missing(
                "cycles",
                true,
                MissingWhy::NotSupported,
                "No such file or directory (os error 2)",
            )],
        });
        assert_eq!(
            counters(&env, true),
            "not available: the CPU or the hypervisor exposes none (cycles: No such file or directory (os error 2))"
        );
        assert_eq!(counters(&env, false), "task-clock, page-faults");
        assert_eq!(
            counter_notice(&env, None).unwrap(),
            "hardware counters are not available: the CPU or the hypervisor exposes none (cycles: No such file or directory (os error 2)); counting the kernel's software events in every run (task-clock, page-faults) only"
        );
        let cache = |size, ways| SimulatedCache {
            size: plumb_model::quantity::ByteSize(size),
            ways,
            line_size: plumb_model::quantity::ByteSize(64),
        };
        let caches = SimulatedCaches {
            i1: cache(32 << 10, 8),
            d1: cache(32 << 10, 8),
            ll: cache(32 << 20, 16),
        };
        let sim = simulation_summary(
            "cachegrind (valgrind-3.19.0)",
            &caches,
            "once per command after the timed runs",
        );
        assert_eq!(
            counter_notice(&env, Some(&sim)).unwrap(),
            "hardware counters are not available: the CPU or the hypervisor exposes none (cycles: No such file or directory (os error 2)); counting the kernel's software events in every run (task-clock, page-faults), and simulating the rest: cachegrind (valgrind-3.19.0) with this machine's caches (I1 32.0 KiB 8-way, D1 32.0 KiB 8-way, LL 32.0 MiB 16-way), once per command after the timed runs"
        );
    }

    #[test]
    fn forbidden_partial_and_unprobed_cases_read_plainly() {
        let env = with(CounterAvailability {
            hardware: vec!["cycles".into()],
            software: vec![],
            missing: vec![
                missing("LLC-loads", true, MissingWhy::NotSupported, "x"),
                missing(
                    "task-clock",
                    false,
                    MissingWhy::Forbidden,
                    "Permission denied (os error 13)",
                ),
            ],
        });
        assert_eq!(counters(&env, true), "cycles; missing: LLC-loads");
        assert!(counters(&env, false).starts_with("not available: the kernel forbids it"));
        assert_eq!(counters(&Environment::default(), true), "not probed");
    }
}
