//! What every measuring command sets up the same way: the record of how plumb was invoked,
//! and the flag Ctrl-C (or SIGTERM/SIGHUP) raises so a run stops and keeps its results.

use crate::exit::CliError;
use plumb_model::Invocation;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub fn invocation() -> Invocation {
    Invocation {
        argv: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        cwd: std::env::current_dir()
            .ok()
            .map(|p| p.display().to_string()),
    }
}

pub fn stop_on_ctrl_c() -> Result<Arc<AtomicBool>, CliError> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
        .map_err(|e| CliError(format!("cannot install the Ctrl-C handler: {e}")))?;
    Ok(stop)
}
