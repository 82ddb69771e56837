//! What a benchmark measured — a command, a function, or latency under load — with the
//! parts that only that kind has, so that nothing can give a command function info or a
//! function a load result.
use crate::{BenchmarkKind, FunctionInfo, LoadInfo};

#[derive(Debug, Clone, PartialEq)]
pub enum Workload {
    /// A whole process, timed from spawn to exit: the command line as given, after
    /// parameter substitution (absent when an importer did not have it).
    Command { command: Option<String> },
    /// A function timed in-process: what the harness recorded about it (absent when
    /// imported from another harness).
    Function(Option<Box<FunctionInfo>>),
    /// Latency under load: the load test's result (absent only while it is assembled).
    Load(Option<Box<LoadInfo>>),
}

impl Workload {
    /// A workload of `kind` with none of its parts yet.
    pub fn empty(kind: BenchmarkKind) -> Workload {
        match kind {
            BenchmarkKind::Command => Workload::Command { command: None },
            BenchmarkKind::Function => Workload::Function(None),
            BenchmarkKind::Load => Workload::Load(None),
        }
    }

    pub fn kind(&self) -> BenchmarkKind {
        match self {
            Workload::Command { .. } => BenchmarkKind::Command,
            Workload::Function(_) => BenchmarkKind::Function,
            Workload::Load(_) => BenchmarkKind::Load,
        }
    }
}
