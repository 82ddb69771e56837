//! Revisions to measure: a git repository's commits resolved to trees (`git.rs`), each
//! checked out in its own worktree under `.plumb/revs/`, keyed by its tree and build
//! command and reused while both are the same (`checkout.rs`), and built there with the
//! stop flag honoured and the log kept (`build.rs`, `side.rs`); the two worktrees measured
//! against each other through plumb-command's runner and `Spawner` seam until the
//! sequential verdict the caller supplies settles (`rounds.rs`; `harness.rs` for in-process
//! harnesses). `plumb revs` and history confirmation both measure through here. Revision
//! names reach git as arguments, never through a shell.

mod build;
mod checkout;
mod config;
mod error;
mod git;
mod harness;
mod rounds;
mod side;
mod sides;
#[cfg(test)]
mod test_repo;
#[cfg(test)]
mod test_sides;

pub use build::{build, last_lines, Built};
pub use checkout::{checkout, Checkout, CACHE_DIR};
pub use config::{RepoConfig, RevsSection, CONFIG_FILE};
pub use error::RevsError;
pub use git::{Repo, Resolved};
pub use harness::{is_harness, measure_harness, HarnessRun};
pub use rounds::{measure, Measure};
pub use side::{build_side, NotBuilt, Side};
