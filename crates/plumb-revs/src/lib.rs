//! Revisions to measure: a git repository's commits resolved to trees (`git.rs`), each
//! checked out in its own worktree under `.plumb/revs/`, keyed by its tree and build
//! command and reused while both are the same (`checkout.rs`), and built there with the
//! stop flag honoured and the log kept (`build.rs`). `plumb revs` measures the two
//! worktrees with plumb-command's runner; `plumb history confirm` bisects through them.
//! Revision names reach git as arguments, never through a shell.

mod build;
mod checkout;
mod config;
mod error;
mod git;
#[cfg(test)]
mod test_repo;

pub use build::{build, last_lines, Built};
pub use checkout::{checkout, Checkout, CACHE_DIR};
pub use config::{RepoConfig, RevsSection, CONFIG_FILE};
pub use error::RevsError;
pub use git::{Repo, Resolved};
