//! The stop signals every producer honours — Ctrl-C (SIGINT), SIGTERM, SIGHUP — caught
//! into one flag that `plumb run`, `plumb load`, `plumb profile` and the in-process
//! harness read between measurements, so a stopped run keeps and writes what it measured;
//! and the name a result records for the signal that stopped it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// What a second stop signal does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecondSignal {
    /// The same as the first: the run is already stopping.
    Same,
    /// Ends the process at once (exit 1), for a user who does not want to wait.
    Exits,
}

/// The stop signals, caught for as long as this lives.
pub struct StopOnSignals {
    /// Raised by the first stop signal. Read between measurements, never inside one.
    pub stop: Arc<AtomicBool>,
    signal: Arc<AtomicUsize>,
    ids: Vec<signal_hook::SigId>,
}

/// A stop signal's handler that could not be installed.
#[derive(Debug)]
pub struct NoHandler {
    pub signal: i32,
    pub cause: std::io::Error,
}

impl std::fmt::Display for NoHandler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot install the handler of signal {}: {}",
            self.signal, self.cause
        )
    }
}

impl std::error::Error for NoHandler {}

impl StopOnSignals {
    pub fn install(second: SecondSignal) -> Result<StopOnSignals, NoHandler> {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let stop = Arc::new(AtomicBool::new(false));
        let signal = Arc::new(AtomicUsize::new(0));
        let mut ids = Vec::new();
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            let failed = |cause: std::io::Error| NoHandler { signal: sig, cause };
            if second == SecondSignal::Exits {
                // Registered first, so it sees the flag as the previous signal left it.
                ids.push(
                    signal_hook::flag::register_conditional_shutdown(sig, 1, Arc::clone(&stop))
                        .map_err(failed)?,
                );
            }
            ids.push(
                signal_hook::flag::register_usize(sig, Arc::clone(&signal), sig as usize)
                    .map_err(failed)?,
            );
            ids.push(signal_hook::flag::register(sig, Arc::clone(&stop)).map_err(failed)?);
        }
        Ok(StopOnSignals { stop, signal, ids })
    }

    /// The stop signal caught, if one was.
    pub fn signal(&self) -> Option<i32> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            s => Some(s as i32),
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

/// How a result names a stop signal: "Ctrl-C" for SIGINT, "SIGTERM", "SIGHUP", or
/// "signal N".
pub fn signal_name(sig: i32) -> String {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    match sig {
        SIGINT => "Ctrl-C".into(),
        SIGTERM => "SIGTERM".into(),
        SIGHUP => "SIGHUP".into(),
        s => format!("signal {s}"),
    }
}
