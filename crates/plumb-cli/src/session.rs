//! The flag Ctrl-C (or SIGTERM/SIGHUP) raises so a run stops and keeps its results; every
//! measuring command sets it up the same way.

use crate::exit::CliError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub fn stop_on_ctrl_c() -> Result<Arc<AtomicBool>, CliError> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
        .map_err(|e| CliError(format!("cannot install the Ctrl-C handler: {e}")))?;
    Ok(stop)
}
