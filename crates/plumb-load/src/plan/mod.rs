//! A load test planned from what was asked, before anything is sent: a `--targets` request
//! mix read from its file (`mix_file`), each target's plan (`targets`), and one agent's share of a schedule shared by
//! several (`agent_share`); each refusal a typed `PlanError` naming what to give.
mod agent_share;
mod config;
mod mix_file;
mod targets;

pub use agent_share::{agent_share, INDEX_VARIABLES};
pub use config::Sent;
pub use mix_file::{read_mix, Refused};
pub use targets::{parse_headers, plan_mix, plan_urls};

use crate::http::targets_file::TargetsError;
use std::fmt;
use std::path::PathBuf;

#[derive(Debug)]
pub enum PlanError {
    /// The targets file could not be read.
    TargetsFile { path: PathBuf, cause: String },
    /// The targets file does not parse.
    Targets { file: String, error: TargetsError },
    /// A target of the file is refused (its URL, its body file), at `line`.
    Target {
        file: String,
        line: usize,
        why: Refused,
    },
    /// `--agent-index` without `--agents`.
    IndexWithoutAgents,
    /// `--agents N` without an index from the option or the scheduler.
    NoIndex { count: u32 },
    /// An index not below the number of agents.
    IndexTooHigh { index: u32, count: u32 },
    /// A scheduler's variable that is not a whole number.
    IndexVariable { name: &'static str, value: String },
    /// A header that is not `Name: value`.
    Header(String),
    /// A target's URL that does not parse.
    Url(crate::http::TargetError),
    /// A duration option that must be above 0.
    Zero(&'static str),
    /// Neither or both of an open loop's rate and a closed loop's connections.
    RateOrClosed,
    /// Two targets that are one URL.
    SameTargetTwice(String),
    /// An option that describes one run, given with several (`runs` says why several).
    OneRunOnly {
        option: &'static str,
        runs: &'static str,
    },
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::TargetsFile { path, cause } => write!(
                f,
                "cannot read the targets file {}: {cause}",
                path.display()
            ),
            PlanError::Targets { file, error } => write!(f, "{file}: {error}"),
            PlanError::Target { file, line, why } => write!(f, "{file}: line {line}: {why}"),
            PlanError::IndexWithoutAgents => write!(
                f,
                "--agent-index needs --agents N (how many agents share the schedule)"
            ),
            PlanError::NoIndex { count } => write!(
                f,
                "--agents {count} needs this agent's index: --agent-index I, or {} set by the scheduler",
                INDEX_VARIABLES.join(" or ")
            ),
            PlanError::IndexTooHigh { index, count } => write!(
                f,
                "agent index {index} is not below --agents {count} (indices run from 0 to {})",
                count - 1
            ),
            PlanError::IndexVariable { name, value } => {
                write!(f, "{name}={value:?} is not an agent index (a whole number)")
            }
            PlanError::Header(h) => write!(f, "header {h:?} is not 'Name: value'"),
            PlanError::Url(e) => e.fmt(f),
            PlanError::Zero(option) => write!(f, "{option} must be above 0"),
            PlanError::RateOrClosed => {
                f.write_str("give one of --rate (an open loop) and --closed N (a closed loop)")
            }
            PlanError::SameTargetTwice(url) => write!(
                f,
                "the two targets are the same URL ({url}): to see how much one server varies, use --repeat N on one target"
            ),
            PlanError::OneRunOnly { option, runs } => write!(
                f,
                "{option} describes one run; with {runs} there are several (the result keeps each run's histogram)"
            ),
        }
    }
}

impl std::error::Error for PlanError {}
