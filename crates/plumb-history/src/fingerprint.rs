//! The machine a series belongs to: results of different machines are never one series.
//! The fingerprint keeps what changes a benchmark's speed and stays put across reboots:
//! the CPU model, cores and threads, memory (in whole GiB: the kernel's figure moves by
//! a few MiB), the OS and whether it is virtualised — not the hostname or the kernel's
//! exact build, which a fleet of identical CI runners does not share.
use plumb_model::ResultDocument;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MachineFingerprint(pub String);

impl MachineFingerprint {
    /// The machine `doc` was measured on. An import's is "machine not recorded": its
    /// series are kept apart from those of machines plumb read, and not called bare metal.
    pub fn of(doc: &ResultDocument) -> MachineFingerprint {
        let env = &doc.environment;
        let gib = env.memory.map(|m| {
            let whole = (m.0 as f64 / (1u64 << 30) as f64).round() as u64;
            plumb_model::format::bytes(plumb_model::quantity::ByteSize(whole << 30))
        });
        let part = |v: Option<String>| v.unwrap_or_else(|| "?".into());
        MachineFingerprint(format!(
            "{} | {} cores {} threads | {} | {} | {}",
            part(env.cpu_model.clone()),
            part(env.cores.map(|c| c.to_string())),
            part(env.threads.map(|c| c.to_string())),
            part(gib),
            part(env.os.clone()),
            match (doc.machine_recorded(), &env.virtualization) {
                (false, _) => "machine not recorded",
                (true, Some(_)) => "virtualised",
                (true, None) => "bare metal",
            }
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::quantity::ByteSize;
    use plumb_model::{Environment, Invocation, ProducerSettings, Settings};

    fn on(environment: Environment, producer: ProducerSettings) -> ResultDocument {
        let settings = Settings::default_levels(producer);
        ResultDocument::new("0", Invocation::current(), environment, settings)
    }

    #[test]
    fn a_machine_s_fingerprint_ignores_its_name_and_memory_jitter() {
        let mut a = Environment {
            cpu_model: Some("AMD EPYC".into()),
            cores: Some(2),
            threads: Some(2),
            memory: Some(ByteSize(24 * (1 << 30) - 300 * (1 << 20))),
            os: Some("Debian GNU/Linux 12".into()),
            virtualization: Some("kvm".into()),
            hostname: Some("runner-1".into()),
            ..Environment::default()
        };
        let of = |e: &Environment| MachineFingerprint::of(&on(e.clone(), ProducerSettings::None));
        let first = of(&a);
        a.hostname = Some("runner-2".into());
        a.memory = Some(ByteSize(24 * (1 << 30) - 280 * (1 << 20)));
        assert_eq!(of(&a), first);
        assert_eq!(
            first.0,
            "AMD EPYC | 2 cores 2 threads | 24.0 GiB | Debian GNU/Linux 12 | virtualised"
        );
        a.cores = Some(4);
        assert_ne!(of(&a), first);
        // An import's machine is not recorded, whatever its file holds: not bare metal.
        let imported = ProducerSettings::Imported {
            tool: "hyperfine".into(),
        };
        a.virtualization = None;
        assert!(MachineFingerprint::of(&on(a, imported))
            .0
            .ends_with("| machine not recorded"));
    }
}
