//! Producer: benchmarks whole commands.
//!
//! Commands are spawned directly (no shell) unless a shell is asked for, in which case an
//! empty shell invocation is measured in the same rounds and its mean subtracted. Several
//! commands run *interleaved*, one run of each per round, so slow drift of the machine
//! falls on all of them alike and cancels out of their ratio.

mod params;
mod plan;
mod process;
mod runner;
mod schedule;

pub use params::{expand, ParamError, Parameter, ParameterValues};
pub use plan::{CommandSpec, Order, OutputPolicy, PlanError, RunCount, RunPlan};
pub use process::{reset_sigchld, Executable, SpawnError};
pub use runner::{run, Measured, Outcome, Progress, Status};
