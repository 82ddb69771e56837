//! The seam between the runner (rounds, counts, order, failures) and processes: the
//! runner asks a `Spawner` for a `Launch` per command and runs it; `ProcessSpawner`
//! starts real processes (`process.rs`), `FakeSpawner` (`fake.rs`) pretends to, so run
//! counts, order and output are tested without timing anything.

use crate::OutputPolicy;
use plumb_model::quantity::{ByteSize, Duration};
use plumb_model::{Exit, Metric};
use std::fmt;
use std::io;
use std::path::Path;

/// What one run of a command measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunRecord {
    pub wall: Duration,
    /// The child's CPU time in user mode and in the kernel (`wait4`'s rusage).
    pub user: Duration,
    pub sys: Duration,
    /// The child's own peak resident set.
    pub peak_rss: ByteSize,
    pub exit: Exit,
}

impl RunRecord {
    /// A placeholder before a run is recorded.
    pub const EMPTY: RunRecord = RunRecord {
        wall: Duration::ZERO,
        user: Duration::ZERO,
        sys: Duration::ZERO,
        peak_rss: ByteSize(0),
        exit: Exit::Code(0),
    };

    /// The metrics of a command run, as the result model names them.
    pub const METRICS: [Metric; 4] = [
        Metric::WallTime,
        Metric::UserTime,
        Metric::SystemTime,
        Metric::PeakRss,
    ];

    pub fn values(&self) -> [(Metric, u64); 4] {
        [
            (Metric::WallTime, self.wall.as_nanos()),
            (Metric::UserTime, self.user.as_nanos()),
            (Metric::SystemTime, self.sys.as_nanos()),
            (Metric::PeakRss, self.peak_rss.0),
        ]
    }

    /// How the run failed, or `None` when it exited 0.
    pub fn failure(&self) -> Option<String> {
        match self.exit {
            Exit::Code(0) => None,
            Exit::Code(code) => Some(format!("exited with status {code}")),
            Exit::Signal { signal } => Some(format!("was killed by signal {signal}")),
        }
    }
}

#[derive(Debug)]
pub enum SpawnError {
    NotFound(String),
    PermissionDenied(String),
    Other { program: String, error: io::Error },
}

impl fmt::Display for SpawnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpawnError::NotFound(p) => write!(
                f,
                "command not found: {p:?} (commands run without a shell: for shell syntax, `plumb run --shell`, or the command as sh -c '…')"
            ),
            SpawnError::PermissionDenied(p) => write!(f, "permission denied running {p:?}"),
            SpawnError::Other { program, error } => write!(f, "cannot run {program:?}: {error}"),
        }
    }
}

impl std::error::Error for SpawnError {}

/// A command ready to run, many times.
pub trait Launch {
    /// Runs it once and measures it.
    fn run_once(&mut self) -> Result<RunRecord, SpawnError>;
    /// The end of what the last run wrote to stderr, at most `max_bytes` (empty when its
    /// stderr was not captured).
    fn stderr_tail(&mut self, max_bytes: u64) -> String;
    /// Runs it and `other` (of the same spawner) at the same time, this one on `cpus[0]`
    /// and `other` on `cpus[1]` (a duet, `duet.rs`), each measured from its own start
    /// to its own exit. A fake's runs take the time their text says, one after the other.
    fn run_beside(
        &mut self,
        other: &mut dyn Launch,
        _cpus: [usize; 2],
    ) -> Result<[RunRecord; 2], SpawnError> {
        Ok([self.run_once()?, other.run_once()?])
    }
    /// The launch as its own type: a real process's duet needs a real process beside it.
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
}

/// Makes commands ready to run.
pub trait Spawner {
    /// `argv[0]` is the program, run in `dir` (plumb's own directory when `None`);
    /// `output` says where its stdout goes.
    fn prepare(
        &mut self,
        argv: &[String],
        dir: Option<&Path>,
        output: &OutputPolicy,
    ) -> io::Result<Box<dyn Launch>>;
    /// Makes room for `launches` prepared at once, before the first is prepared.
    fn reserve(&mut self, _launches: usize) -> io::Result<()> {
        Ok(())
    }
}
