//! Which counter events open on this machine, and why the others do not (errno to a reason).
use crate::{CounterEvent, EventKind};
use plumb_model::{CounterAvailability, MissingCounter, MissingWhy};
use std::io;

/// Which events open on this machine for the calling process, and why the others do not.
/// Each is opened alone and closed at once; nothing is counted.
pub fn availability() -> CounterAvailability {
    let mut out = CounterAvailability::default();
    for event in CounterEvent::ALL {
        match opened(event) {
            Ok(_) => match event.kind() {
                EventKind::Hardware => out.hardware.push(event.name().to_string()),
                EventKind::Software => out.software.push(event.name().to_string()),
            },
            Err(e) => out.missing.push(MissingCounter {
                event: event.name().to_string(),
                hardware: event.kind() == EventKind::Hardware,
                why: why_missing(&e),
                detail: e.to_string(),
            }),
        }
    }
    out
}

/// `event` opened alone, or why not.
#[cfg(feature = "perf")]
fn opened(event: CounterEvent) -> io::Result<()> {
    event.builder().build().map(drop)
}

/// Built without perf_event_open: no event opens.
#[cfg(not(feature = "perf"))]
fn opened(_: CounterEvent) -> io::Result<()> {
    Err(io::Error::new(io::ErrorKind::Unsupported, NOT_BUILT))
}

/// Said of every event when this build has no perf_event_open.
#[cfg(not(feature = "perf"))]
pub(crate) const NOT_BUILT: &str = "built without perf_event_open (the perf feature)";

/// What an error of `perf_event_open` means for the user.
pub fn why_missing(e: &io::Error) -> MissingWhy {
    if e.kind() == io::ErrorKind::Unsupported && e.raw_os_error().is_none() {
        return MissingWhy::NotBuilt;
    }
    match e.raw_os_error() {
        // ENOENT: no such event on this PMU (or no PMU at all, as under many hypervisors);
        // EOPNOTSUPP and ENODEV: the CPU or kernel cannot count it.
        Some(libc::ENOENT) | Some(libc::EOPNOTSUPP) | Some(libc::ENODEV) => {
            MissingWhy::NotSupported
        }
        Some(libc::EACCES) | Some(libc::EPERM) => MissingWhy::Forbidden,
        Some(libc::ENOSYS) => MissingWhy::NoSyscall,
        _ => MissingWhy::Error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_classified_by_errno() {
        let e = |n| io::Error::from_raw_os_error(n);
        assert_eq!(why_missing(&e(libc::ENOENT)), MissingWhy::NotSupported);
        assert_eq!(why_missing(&e(libc::EOPNOTSUPP)), MissingWhy::NotSupported);
        assert_eq!(why_missing(&e(libc::EACCES)), MissingWhy::Forbidden);
        assert_eq!(why_missing(&e(libc::ENOSYS)), MissingWhy::NoSyscall);
        assert_eq!(why_missing(&e(libc::EINVAL)), MissingWhy::Error);
    }

    /// Every event is either available or missing with a reason, on any machine. Where
    /// perf_event_open works at all (here: software events), task-clock is available.
    #[test]
    fn every_event_is_accounted_for() {
        let a = availability();
        let open = a.hardware.len() + a.software.len();
        assert_eq!(open + a.missing.len(), CounterEvent::ALL.len());
        let no_syscall = a.missing.iter().any(|m| m.why == MissingWhy::NoSyscall);
        let forbidden = a.missing.iter().any(|m| m.why == MissingWhy::Forbidden);
        if cfg!(feature = "perf") && !no_syscall && !forbidden {
            assert!(a.software.iter().any(|e| e == "task-clock"), "{a:?}");
        }
        // Without perf_event_open in the build, every event is missing, said so.
        if !cfg!(feature = "perf") {
            assert!(
                a.missing.iter().all(|m| m.why == MissingWhy::NotBuilt),
                "{a:?}"
            );
        }
    }
}
