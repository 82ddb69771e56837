//! The flag a stop signal (Ctrl-C's SIGINT, SIGTERM, SIGHUP) raises so a run stops and
//! keeps its results, and which signal it was: the exit code is 128 + its number, as a
//! shell would report, and the output names it.

use crate::exit::CliError;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

pub struct Session {
    /// Raised by the first stop signal; producers read it between runs or requests.
    pub stop: Arc<AtomicBool>,
    signal: Arc<AtomicUsize>,
}

pub fn stop_on_signals() -> Result<Session, CliError> {
    let stop = Arc::new(AtomicBool::new(false));
    let signal = Arc::new(AtomicUsize::new(0));
    for sig in [SIGINT, SIGTERM, SIGHUP] {
        signal_hook::flag::register_usize(sig, Arc::clone(&signal), sig as usize)
            .and_then(|_| signal_hook::flag::register(sig, Arc::clone(&stop)))
            .map_err(|e| CliError(format!("cannot install the handler of signal {sig}: {e}")))?;
    }
    Ok(Session { stop, signal })
}

impl Session {
    /// The signal that stopped the run (SIGINT when the stop came another way, e.g. a
    /// child killed by the terminal's SIGINT before the handler ran).
    pub fn signal(&self) -> i32 {
        match self.signal.load(Ordering::SeqCst) {
            0 => SIGINT,
            s => s as i32,
        }
    }

    /// "Ctrl-C" for SIGINT, the signal's name otherwise.
    pub fn signal_name(&self) -> String {
        match self.signal() {
            SIGINT => "Ctrl-C".into(),
            SIGTERM => "SIGTERM".into(),
            SIGHUP => "SIGHUP".into(),
            s => format!("signal {s}"),
        }
    }

    /// 128 + the signal's number: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP.
    pub fn exit_code(&self) -> i32 {
        128 + self.signal()
    }
}
