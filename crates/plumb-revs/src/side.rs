//! One side of a comparison of revisions: a revision checked out in its worktree and
//! built there, with what became of the build said through the caller's `say`.
use crate::{build, checkout, Built, Checkout, Repo, Resolved, RevsError};
use plumb_model::Revision;
use std::sync::atomic::AtomicBool;

/// A revision checked out and built.
#[derive(Debug, Clone)]
pub struct Side {
    pub rev: Resolved,
    pub checkout: Checkout,
    pub built: Built,
}

/// Why a side could not be built.
#[derive(Debug, Clone, PartialEq)]
pub enum NotBuilt {
    /// The build failed: what to say (its command, how, the end of its log).
    Failed(String),
    /// A stop signal came during the build; the worktree is kept.
    Interrupted,
}

/// Checks `rev` out and builds it with `command`, saying each step through `say`.
pub fn build_side(
    repo: &Repo,
    rev: &Resolved,
    command: Option<&str>,
    stop: &AtomicBool,
    say: &mut dyn FnMut(String),
) -> Result<Result<Side, NotBuilt>, RevsError> {
    let c = checkout(repo, rev, command)?;
    let label = rev.label();
    if command.is_some() && !c.built {
        say(format!("building {label} in {}", c.dir.display()));
    }
    let built = build(&c, command, stop)?;
    match &built {
        Built::Failed { how, tail } => {
            return Ok(Err(NotBuilt::Failed(format!(
                "the build of {label} {how}; the end of its log ({}):\n{tail}",
                c.build_log().display()
            ))))
        }
        Built::Interrupted => return Ok(Err(NotBuilt::Interrupted)),
        Built::Done { time } => say(format!(
            "built {label} in {}",
            plumb_model::format::time(*time)
        )),
        Built::Reused => say(format!("reusing the build of {label}")),
        Built::NotAsked => {}
    }
    Ok(Ok(Side {
        rev: rev.clone(),
        checkout: c,
        built,
    }))
}

impl Side {
    /// The side as the result records it.
    pub fn revision(&self) -> Revision {
        Revision {
            name: self.rev.name.clone(),
            commit: self.rev.commit.clone(),
            tree: self.rev.tree.clone(),
            working_tree: self.rev.commit.is_none(),
            dir: self.checkout.dir.display().to_string(),
            build_time: match self.built {
                Built::Done { time } => Some(time),
                _ => None,
            },
            build_reused: self.built == Built::Reused,
        }
    }
}
