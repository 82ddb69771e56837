//! Conditions of the machine that make numbers noisy, each with the command that fixes
//! it, in the spirit of `pyperf system show`.

use plumb_model::finding::{
    Aslr, BusyMachine, ClockSource, CpuGovernor, NotPinned, Smt, Turbo, Virtualized,
};
use plumb_model::{Diagnostic, Environment, Severity};

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
    let any_other = env.governors.iter().any(|g| g != "performance");
    any_other.then(|| {
        let finding = CpuGovernor {
            governors: env.governors.clone(),
        };
        Diagnostic::new(Severity::Warning, finding)
    })
}

fn turbo(env: &Environment) -> Option<Diagnostic> {
    (env.turbo == Some(true)).then(|| Diagnostic::new(Severity::Warning, Turbo {}))
}

fn busy(env: &Environment) -> Option<Diagnostic> {
    let ([load, _, _], threads) = (env.load_average?, env.threads?);
    (load > BUSY_LOAD_PER_THREAD * threads as f64)
        .then(|| Diagnostic::new(Severity::Warning, BusyMachine { load, threads }))
}

fn virtualized(env: &Environment) -> Option<Diagnostic> {
    let virtualization = env.virtualization.clone()?;
    Some(Diagnostic::new(
        Severity::Warning,
        Virtualized { virtualization },
    ))
}

fn clock_source(env: &Environment) -> Option<Diagnostic> {
    let cs = env.clock_source.as_deref().filter(|cs| *cs != "tsc")?;
    let finding = ClockSource {
        clock_source: cs.to_string(),
    };
    Some(Diagnostic::new(Severity::Warning, finding))
}

fn smt(env: &Environment) -> Option<Diagnostic> {
    (env.smt_active == Some(true)).then(|| Diagnostic::new(Severity::Info, Smt {}))
}

fn not_pinned(env: &Environment) -> Option<Diagnostic> {
    let unpinned =
        env.isolated_cpus.is_empty() && env.threads.is_some_and(|t| env.affinity.len() >= t);
    unpinned.then(|| {
        let finding = NotPinned {
            affinity: env.affinity.clone(),
        };
        Diagnostic::new(Severity::Info, finding)
    })
}

fn aslr(env: &Environment) -> Option<Diagnostic> {
    let randomize_va_space = env.aslr.filter(|&a| a == 2)?;
    Some(Diagnostic::new(Severity::Info, Aslr { randomize_va_space }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::DiagnosticCode;

    fn codes(env: &Environment) -> Vec<DiagnosticCode> {
        environment_diagnostics(env)
            .into_iter()
            .map(|d| d.code())
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
        let codes: Vec<_> = d.iter().map(|d| d.code().clone()).collect();
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
    }
}
