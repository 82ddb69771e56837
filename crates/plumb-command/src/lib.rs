//! Producer: benchmarks whole commands.
//!
//! Commands are spawned directly (no shell) unless a shell is asked for, in which case an
//! empty shell invocation is measured in the same rounds and its mean subtracted. Several
//! commands run *interleaved*, one run of each per round, so slow drift of the machine
//! falls on all of them alike and cancels out of their ratio.

mod asked;
mod document;
mod duet;
mod fake;
mod fd_limit;
#[cfg(feature = "cli")]
pub mod options;
mod params;
mod plan;
mod process;
mod reap;
mod runner;
mod schedule;
mod settled;
mod signals;
mod simulate;
mod spawner;
mod stop_children;

pub use asked::{plan_of, Asked, MAX_BENCHMARKS};
pub use document::{command_settings, produce, produce_until, RunContext};
pub use duet::two_cpus;
pub use fake::FakeSpawner;
pub use params::{expand, ParamError, Parameter, ParameterValues, MAX_VALUES};
pub use plan::{CommandSpec, Order, OutputPolicy, PlanError, RunCount, RunPlan, SimulationPlan};
pub use process::{reset_sigchld, ProcessSpawner};
pub use settled::{
    check as check_until_settled, pair_runs, produce_settled, trial, PairingAsked, Trial,
    UntilSettled, MIN_RUNS_PER_ROUND,
};

/// A command's words as one line that `RunPlan::argv` splits back into the same words.
pub fn join_words(words: &[String]) -> String {
    shell_words::join(words)
}
pub use runner::{run, run_until, Measured, Measurements, Progress, RunError, Status, Until};
pub use spawner::{Launch, RunRecord, SpawnError, Spawner};
