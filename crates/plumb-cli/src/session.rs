//! The flag a stop signal (Ctrl-C's SIGINT, SIGTERM, SIGHUP) raises so a run stops and
//! keeps its results (plumb-probe's `StopOnSignals`, shared with the in-process harness),
//! and which signal it was: the exit code is 128 + its number, as a shell would report,
//! and the output names it.

use crate::exit::{CliError, Outcome};
use plumb_probe::stop::{signal_name, SecondSignal, StopOnSignals};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub struct Session {
    /// Raised by the first stop signal; producers read it between runs or requests.
    pub stop: Arc<AtomicBool>,
    signals: StopOnSignals,
}

pub fn stop_on_signals() -> Result<Session, CliError> {
    let signals = StopOnSignals::install(SecondSignal::Same)?;
    Ok(Session {
        stop: Arc::clone(&signals.stop),
        signals,
    })
}

impl Session {
    /// The signal that stopped the run (SIGINT when the stop came another way, e.g. a
    /// child killed by the terminal's SIGINT before the handler ran).
    pub fn signal(&self) -> i32 {
        self.signals.signal().unwrap_or(signal_hook::consts::SIGINT)
    }

    /// "Ctrl-C" for SIGINT, the signal's name otherwise.
    pub fn signal_name(&self) -> String {
        signal_name(self.signal())
    }

    /// How a load test or a coordinated test ended, as an outcome (a stop: this
    /// session's signal).
    pub fn outcome_of(&self, ended: plumb_loadtest::Ended) -> Outcome {
        use plumb_loadtest::Ended;
        match ended {
            Ended::Done => Outcome::Done,
            Ended::GateFailed => Outcome::GateFailed,
            Ended::Failed => Outcome::Failed,
            Ended::Stopped => self.stopped(),
        }
    }

    /// Stopped by the signal: exit 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP.
    pub fn stopped(&self) -> Outcome {
        Outcome::Stopped(self.signal())
    }
}
