//! Why a profile could not be taken or read, each message with what to do.
use std::fmt;

/// Why a profile could not be taken or read; each message says what to do.
#[derive(Debug, Clone, PartialEq)]
pub enum ProfileError {
    NoPerf,
    PerfBroken(String),
    Forbidden {
        paranoid: String,
    },
    NoEvent(String),
    NoCommand(String),
    Output(String),
    Script(String),
    /// A saved profile that cannot be read.
    Input(String),
    NoValgrind,
}

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProfileError::NoPerf => write!(
                f,
                "perf is not installed: install it (Debian: apt install linux-perf; Ubuntu: apt install linux-tools-$(uname -r)), or set PLUMB_PERF to its path"
            ),
            ProfileError::PerfBroken(said) => write!(f, "perf does not run here: {said}"),
            ProfileError::Forbidden { paranoid } => write!(
                f,
                "perf may not sample here (kernel.perf_event_paranoid is {paranoid}, or a container forbids perf_event_open): run `sudo sysctl kernel.perf_event_paranoid=2`, or run as root, or start the container with --cap-add PERFMON (or --privileged)"
            ),
            ProfileError::NoEvent(event) => write!(
                f,
                "perf cannot sample the event {event} here: use --event cpu-clock (a timer, available everywhere)"
            ),
            ProfileError::NoCommand(what) => write!(f, "{what}"),
            ProfileError::Output(what) => write!(f, "{what}"),
            ProfileError::Script(what) => write!(f, "perf script failed: {what}"),
            ProfileError::Input(what) => write!(f, "{what}"),
            ProfileError::NoValgrind => write!(
                f,
                "the allocation profile needs valgrind's DHAT: install valgrind (Debian: apt install valgrind)"
            ),
        }
    }
}

impl std::error::Error for ProfileError {}

/// A profile's text (DHAT's JSON, `.folded` lines) that does not read.
#[derive(Debug, Clone, PartialEq)]
pub enum Unreadable {
    /// DHAT's output is not JSON.
    DhatJson(String),
    /// DHAT's output of another file version.
    DhatVersion,
    /// DHAT's output without this part.
    DhatPart(&'static str),
    /// A `.folded` line that is not `frames count` (1-based).
    FoldedLine { line: usize, text: String },
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreadable::DhatJson(e) => write!(f, "DHAT's output: {e}"),
            Unreadable::DhatVersion => f.write_str("DHAT's output is not of file version 2"),
            Unreadable::DhatPart(part) => write!(f, "DHAT's output has no {part}"),
            Unreadable::FoldedLine { line, text } => {
                write!(f, "line {line}: not `frames count`: {text:?}")
            }
        }
    }
}

impl std::error::Error for Unreadable {}
