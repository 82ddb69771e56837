//! What can stop a load test, a merge or a coordinated test's result beyond the load
//! producer's own errors: each variant says the cause and, where there is one, the fix.
use plumb_model::Finding;
use std::fmt;

#[derive(Debug)]
pub enum LoadTestError {
    /// The load producer's error (a target, TLS, a run, a histogram).
    Load(plumb_load::LoadError),
    /// `--start-at` further ahead than `FURTHEST_START`.
    StartTooFar {
        at: plumb_model::quantity::Timestamp,
        wait: plumb_model::quantity::Duration,
    },
    /// An agent that could not get its start from the coordinator.
    NoStart(plumb_load::agents::AgentError),
    /// A rate more than `BEYOND_MACHINE` times what this machine could send, without
    /// `--allow-late`: the finding (a `RateAboveCapacity`).
    BeyondMachine(Box<Finding>),
    /// An input of a merge with benchmarks other than load tests.
    NotLoad { input: String },
    /// Agents' shares of one schedule that do not make one test (a different N, an
    /// index twice, a share beside a whole).
    Shares(plumb_analysis::Refused),
    /// Windows that do not overlap enough, merged only on request: the finding's words.
    Disjoint { words: String },
    /// `error`, in the merge of the benchmark named `benchmark`.
    In {
        benchmark: String,
        error: Box<LoadTestError>,
    },
    /// No agent's result arrived; why, agent by agent.
    NothingArrived { why: String },
    /// The agents' results do not merge; each is kept in `kept`.
    Unmerged {
        error: Box<LoadTestError>,
        kept: Vec<String>,
    },
    /// A result could not be written.
    Write(plumb_report::targets::ExportError),
}

impl fmt::Display for LoadTestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadTestError::Load(e) => e.fmt(f),
            LoadTestError::BeyondMachine(finding) => write!(
                f,
                "{}. That is more than {} times what this machine could send with all its CPUs: the test would measure only the generator falling behind. Lower --rate, spread the rate over agents (docs/scale-out.md), or give --allow-late to run it anyway",
                plumb_report::finding::message(finding),
                plumb_analysis::BEYOND_MACHINE
            ),
            LoadTestError::StartTooFar { at, wait } => write!(
                f,
                "--start-at {at} is {} from now, more than the 24 h a start may be ahead; agents are given a moment minutes away (e.g. $(( $(date +%s) + 60 )))",
                plumb_model::format::time(*wait)
            ),
            LoadTestError::NoStart(e) => write!(f, "{e}; nothing was sent to the target"),
            LoadTestError::NotLoad { input } => write!(
                f,
                "{input}: merge combines load results (plumb load); this file has other benchmarks"
            ),
            LoadTestError::Shares(refused) => refused.fmt(f),
            LoadTestError::Disjoint { words } => f.write_str(words),
            LoadTestError::In { benchmark, error } => write!(f, "{benchmark}: {error}"),
            LoadTestError::NothingArrived { why } => {
                write!(f, "no agent's result arrived ({why}): nothing to merge")
            }
            LoadTestError::Unmerged { error, kept } => write!(
                f,
                "{error} (each agent's result is kept: {})",
                kept.join(", ")
            ),
            LoadTestError::Write(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LoadTestError {}

impl From<plumb_load::LoadError> for LoadTestError {
    fn from(e: plumb_load::LoadError) -> LoadTestError {
        LoadTestError::Load(e)
    }
}

impl From<plumb_report::targets::ExportError> for LoadTestError {
    fn from(e: plumb_report::targets::ExportError) -> LoadTestError {
        LoadTestError::Write(e)
    }
}
