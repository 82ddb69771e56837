//! Ctrl-C (SIGINT), SIGTERM and SIGHUP during a run: the flag the sampler reads between
//! samples, so a stopped run keeps and writes what it measured; a second signal ends the
//! process at once.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// Raised when the run should stop. Read between samples, never inside the timed region.
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    #[cfg(test)]
    pub fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Two configurations are the same whatever flag they watch.
impl PartialEq for StopFlag {
    fn eq(&self, _: &StopFlag) -> bool {
        true
    }
}

/// The stop signals, caught for as long as this lives.
pub struct StopOnSignals {
    pub flag: StopFlag,
    signal: Arc<AtomicUsize>,
    ids: Vec<signal_hook::SigId>,
}

impl StopOnSignals {
    /// Catches SIGINT, SIGTERM and SIGHUP: the first raises `flag`, a second of any of
    /// them ends the process (exit 1) for a user who does not want to wait.
    pub fn install() -> Result<StopOnSignals, String> {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let flag = StopFlag::default();
        let signal = Arc::new(AtomicUsize::new(0));
        let mut ids = Vec::new();
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            let failed = |e: std::io::Error| format!("cannot catch signal {sig}: {e}");
            // Registered first, so it sees the flag as the previous signal left it.
            ids.push(
                signal_hook::flag::register_conditional_shutdown(sig, 1, Arc::clone(&flag.0))
                    .map_err(failed)?,
            );
            ids.push(
                signal_hook::flag::register_usize(sig, Arc::clone(&signal), sig as usize)
                    .map_err(failed)?,
            );
            ids.push(signal_hook::flag::register(sig, Arc::clone(&flag.0)).map_err(failed)?);
        }
        Ok(StopOnSignals { flag, signal, ids })
    }

    /// The signal that stopped the run, named as the result records it.
    pub fn signal_name(&self) -> Option<String> {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        match self.signal.load(Ordering::Relaxed) as i32 {
            0 => None,
            SIGINT => Some("Ctrl-C".into()),
            SIGTERM => Some("SIGTERM".into()),
            SIGHUP => Some("SIGHUP".into()),
            s => Some(format!("signal {s}")),
        }
    }
}

impl Drop for StopOnSignals {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}
