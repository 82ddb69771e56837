//! The one place plumb runs valgrind, for every tool it uses — cachegrind and callgrind
//! (simulated counters), DHAT (allocation sites): its version, a run of a program under a
//! tool with a budget and the stop flag, the tool's output file read back, and what went
//! wrong said from valgrind's log.

use std::ffi::OsStr;
use std::fmt;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Why a simulated run gave no counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimError {
    /// valgrind is not installed.
    NoValgrind,
    /// valgrind could not be started, or the command failed under it.
    Failed(String),
    /// Stopped at the budget.
    OverBudget(Duration),
    /// The stop flag was raised (Ctrl-C).
    Stopped,
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::NoValgrind => write!(
                f,
                "valgrind is not installed, so nothing can be simulated (install it: apt-get install valgrind)"
            ),
            SimError::Failed(m) => f.write_str(m),
            SimError::OverBudget(b) => write!(
                f,
                "the simulation was stopped at its budget of {} (raise --sim-budget)",
                plumb_model::quantity::Duration::from(*b)
            ),
            SimError::Stopped => write!(f, "the simulation was interrupted"),
        }
    }
}

impl SimError {
    /// Why a benchmark has no simulated counts, as its result says it.
    pub fn not_simulated(&self) -> String {
        match self {
            SimError::Stopped => "its simulation was interrupted".into(),
            SimError::Failed(why) => format!("not simulated: {why}"),
            other => other.to_string(),
        }
    }
}

/// valgrind's version ("valgrind-3.19.0"), which also says that it can be run.
pub fn valgrind_version() -> Result<String, SimError> {
    match Command::new("valgrind").arg("--version").output() {
        Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).trim().to_string()),
        Ok(o) => Err(SimError::Failed(format!(
            "`valgrind --version` failed ({})",
            o.status
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(SimError::NoValgrind),
        Err(e) => Err(SimError::Failed(format!("cannot start valgrind: {e}"))),
    }
}

/// A finished run under valgrind: how the program ended, the tool's output file (absent
/// when the tool wrote none), valgrind's log (the program's stderr too), and how long it
/// took.
#[derive(Debug)]
pub struct ValgrindRun {
    pub status: ExitStatus,
    pub output: Option<String>,
    pub log: String,
    pub wall: Duration,
}

impl ValgrindRun {
    /// The tool's output of a run that succeeded; what went wrong otherwise.
    pub fn output_of_success(self, argv: &[impl AsRef<OsStr>]) -> Result<String, SimError> {
        if !self.status.success() {
            return Err(SimError::Failed(failure_message(
                argv,
                self.status,
                &self.log,
            )));
        }
        self.output
            .ok_or_else(|| SimError::Failed("valgrind wrote no output file".into()))
    }
}

/// Runs `argv` (in `dir`, else here) under valgrind with `tool_args` (`--tool=…` and its options), the tool's
/// output file named by the option `out_option` (`--cachegrind-out-file`), and reads that
/// file back. Killed when it runs past `budget` or when `stop` is raised; the program's
/// own output is discarded, its stderr kept in valgrind's log for messages.
pub fn run(
    (argv, dir): (&[impl AsRef<OsStr>], Option<&Path>),
    tool_args: &[String],
    out_option: &str,
    budget: Duration,
    stop: &AtomicBool,
) -> Result<ValgrindRun, SimError> {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let base = std::env::temp_dir().join(format!(
        "plumb-valgrind-{}-{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    let (out, log) = (base.with_extension("out"), base.with_extension("log"));
    let mut args = tool_args.to_vec();
    args.push(format!("{out_option}={}", out.display()));
    let result = run_valgrind((argv, dir), &args, &log, budget, stop);
    let output = std::fs::read_to_string(&out).ok();
    let log_text = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(&log);
    let (status, wall) = result?;
    Ok(ValgrindRun {
        status,
        output,
        log: log_text,
        wall,
    })
}

fn run_valgrind(
    (argv, dir): (&[impl AsRef<OsStr>], Option<&Path>),
    valgrind_args: &[String],
    log: &Path,
    budget: Duration,
    stop: &AtomicBool,
) -> Result<(ExitStatus, Duration), SimError> {
    let log_file = std::fs::File::create(log)
        .map_err(|e| SimError::Failed(format!("cannot create {}: {e}", log.display())))?;
    let started = Instant::now();
    let mut valgrind = Command::new("valgrind");
    if let Some(dir) = dir {
        valgrind.current_dir(dir);
    }
    let mut child = valgrind
        .args(valgrind_args)
        .args(argv)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log_file)
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => SimError::NoValgrind,
            _ => SimError::Failed(format!("cannot start valgrind: {e}")),
        })?;
    loop {
        let waited = child
            .try_wait()
            .map_err(|e| SimError::Failed(format!("waiting for valgrind: {e}")))?;
        if let Some(status) = waited {
            if stop.load(Ordering::Relaxed) {
                return Err(SimError::Stopped);
            }
            return Ok((status, started.elapsed()));
        }
        let over = started.elapsed() > budget;
        if over || stop.load(Ordering::Relaxed) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(if over {
                SimError::OverBudget(budget)
            } else {
                SimError::Stopped
            });
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// What went wrong under valgrind, from its exit and the end of its log (which holds the
/// command's stderr too).
pub fn failure_message(argv: &[impl AsRef<OsStr>], status: ExitStatus, log: &str) -> String {
    let command = argv
        .iter()
        .map(|a| a.as_ref().to_string_lossy())
        .collect::<Vec<_>>()
        .join(" ");
    if log.contains("unhandled instruction") {
        return format!(
            "valgrind cannot run {command}: it uses an instruction valgrind does not know (built for a newer CPU than valgrind supports?); no simulated counters"
        );
    }
    let tail: Vec<&str> = log
        .lines()
        .filter(|l| !l.trim().is_empty())
        .rev()
        .take(3)
        .collect();
    format!(
        "{command} under valgrind {status}: {}",
        tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
    )
}
