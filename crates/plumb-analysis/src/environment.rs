//! Conditions of the machine that make numbers noisy, each with the command that fixes
//! it, in the spirit of `pyperf system show`.

use plumb_model::{Diagnostic, DiagnosticCode, Environment, Severity};

/// A 1-minute load average above this share of the hardware threads is reported.
pub const BUSY_LOAD_PER_THREAD: f64 = 0.25;

/// Every condition of the machine that makes numbers noisy, in a fixed order.
pub fn environment_diagnostics(env: &Environment) -> Vec<Diagnostic> {
    [
        governor,
        turbo,
        busy,
        virtualized,
        clock_source,
        smt,
        not_pinned,
        aslr,
    ]
    .iter()
    .filter_map(|check| check(env))
    .collect()
}

fn governor(env: &Environment) -> Option<Diagnostic> {
    let not_performance: Vec<&str> = env
        .governors
        .iter()
        .map(String::as_str)
        .filter(|g| *g != "performance")
        .collect();
    (!not_performance.is_empty()).then(|| {
        Diagnostic::new(
            DiagnosticCode::CpuGovernor,
            Severity::Warning,
            format!(
                "CPU frequency governor is {}: the clock speed changes with load",
                not_performance.join(", ")
            ),
        )
        .evidence("governors", env.governors.clone())
        .advice("sudo cpupower frequency-set --governor performance")
    })
}

fn turbo(env: &Environment) -> Option<Diagnostic> {
    (env.turbo == Some(true)).then(|| {
        Diagnostic::new(
            DiagnosticCode::Turbo,
            Severity::Warning,
            "turbo boost is on: the clock speed depends on temperature and on other cores",
        )
        .evidence("turbo", true)
        .advice(
            "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo   # or: echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost",
        )
    })
}

fn busy(env: &Environment) -> Option<Diagnostic> {
    let ([load1, _, _], threads) = (env.load_average?, env.threads?);
    (load1 > BUSY_LOAD_PER_THREAD * threads as f64).then(|| {
        Diagnostic::new(
            DiagnosticCode::BusyMachine,
            Severity::Warning,
            format!(
                "load average {load1:.2} on {threads} threads: other work competes for the CPU"
            ),
        )
        .evidence("load_1min", load1)
        .evidence("threads", threads)
        .advice("find it with: top -o %CPU")
    })
}

fn virtualized(env: &Environment) -> Option<Diagnostic> {
    let v = env.virtualization.as_ref()?;
    Some(
        Diagnostic::new(
            DiagnosticCode::Virtualized,
            Severity::Warning,
            format!("running under virtualisation ({v}): steal time and neighbours add noise, and hardware counters may be missing"),
        )
        .evidence("virtualization", v.clone())
        .advice("compare only results from the same machine type; prefer bare metal for small effects"),
    )
}

fn clock_source(env: &Environment) -> Option<Diagnostic> {
    let cs = env.clock_source.as_deref().filter(|cs| *cs != "tsc")?;
    Some(
        Diagnostic::new(
            DiagnosticCode::ClockSource,
            Severity::Warning,
            format!("the kernel clock source is {cs}, not tsc: reading the clock costs more and resolves less"),
        )
        .evidence("clock_source", cs)
        .advice("echo tsc | sudo tee /sys/devices/system/clocksource/clocksource0/current_clocksource   # if tsc is listed in available_clocksource"),
    )
}

fn smt(env: &Environment) -> Option<Diagnostic> {
    (env.smt_active == Some(true)).then(|| {
        Diagnostic::new(
            DiagnosticCode::Smt,
            Severity::Info,
            "SMT (hyper-threading) is on: a sibling thread shares the core's caches and ports",
        )
        .advice("echo off | sudo tee /sys/devices/system/cpu/smt/control")
    })
}

fn not_pinned(env: &Environment) -> Option<Diagnostic> {
    let unpinned =
        env.isolated_cpus.is_empty() && env.threads.is_some_and(|t| env.affinity.len() >= t);
    unpinned.then(|| {
        Diagnostic::new(
            DiagnosticCode::NotPinned,
            Severity::Info,
            "no CPUs are isolated and the benchmark may run on any CPU: the scheduler can migrate it",
        )
        .evidence("affinity", env.affinity.clone())
        .advice("pin: taskset -c 1 plumb …; isolate: boot with isolcpus=1 nohz_full=1")
    })
}

fn aslr(env: &Environment) -> Option<Diagnostic> {
    (env.aslr == Some(2)).then(|| {
        Diagnostic::new(
            DiagnosticCode::Aslr,
            Severity::Info,
            "address-space layout randomisation is on: layout differs run to run (plumb's many runs average over it; that is usually what you want)",
        )
        .evidence("randomize_va_space", 2)
        .advice("to rule layout out: echo 0 | sudo tee /proc/sys/kernel/randomize_va_space")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(env: &Environment) -> Vec<DiagnosticCode> {
        environment_diagnostics(env)
            .into_iter()
            .map(|d| d.code)
            .collect()
    }

    #[test]
    fn quiet_machine_has_no_warnings() {
        let env = Environment {
            governors: vec!["performance".into()],
            turbo: Some(false),
            load_average: Some([0.1, 0.1, 0.1]),
            threads: Some(8),
            clock_source: Some("tsc".into()),
            affinity: vec![3],
            isolated_cpus: vec![3],
            aslr: Some(0),
            ..Default::default()
        };
        assert!(codes(&env).is_empty(), "{:?}", codes(&env));
    }

    #[test]
    fn each_noise_source_is_named_with_a_fix() {
        let env = Environment {
            governors: vec!["powersave".into()],
            turbo: Some(true),
            load_average: Some([3.0, 1.0, 1.0]),
            threads: Some(2),
            virtualization: Some("kvm".into()),
            clock_source: Some("hpet".into()),
            smt_active: Some(true),
            affinity: vec![0, 1],
            aslr: Some(2),
            ..Default::default()
        };
        let d = environment_diagnostics(&env);
        let codes: Vec<_> = d.iter().map(|d| d.code.clone()).collect();
        use DiagnosticCode::*;
        assert_eq!(
            codes,
            [
                CpuGovernor,
                Turbo,
                BusyMachine,
                Virtualized,
                ClockSource,
                Smt,
                NotPinned,
                Aslr
            ]
        );
        assert!(d
            .iter()
            .filter(|d| d.code != DiagnosticCode::Virtualized)
            .all(|d| !d.advice.is_empty()));
    }
}
