//! What can go wrong between a revision's name and a measured comparison of two built
//! worktrees, each said with what to do about it.
use std::fmt;

#[derive(Debug)]
pub enum RevsError {
    /// The directory is not inside a git work tree.
    NotARepository(String),
    /// git is not installed or could not be started.
    NoGit(String),
    /// git does not know the revision.
    NoSuchRevision { name: String, why: String },
    /// A revision name that git would read as an option.
    OptionLikeRevision(String),
    /// The working tree has uncommitted changes to tracked files.
    Dirty { files: Vec<String> },
    /// A git command failed (worktree creation on a full disk, a locked index…).
    Git { what: String, why: String },
    /// The repository's `plumb.toml` could not be read.
    Config { file: String, why: String },
    /// Reading or writing plumb's cache directory failed.
    Cache { path: String, why: String },
    /// The command could not be run or measured (plumb-command's runner).
    Run(plumb_command::RunError),
    /// The command fails in one worktree or both (each: where, and how).
    CommandFails {
        only_one: bool,
        failures: Vec<String>,
    },
    /// A side's harness failed, or wrote no result plumb can read.
    Harness {
        role: String,
        label: String,
        why: String,
    },
    /// A benchmark of the harnesses cannot be compared in a round.
    HarnessBenchmark { name: String, why: String },
    /// The two harnesses share no benchmark name.
    NothingInCommon,
}

impl fmt::Display for RevsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RevsError::NotARepository(dir) => write!(
                f,
                "{dir} is not inside a git repository: plumb revs compares two commits of one"
            ),
            RevsError::NoGit(why) => write!(f, "cannot run git: {why}"),
            RevsError::NoSuchRevision { name, why } => {
                write!(f, "no revision {name:?} in this repository ({why})")
            }
            RevsError::OptionLikeRevision(name) => write!(
                f,
                "{name:?} starts with '-', so git would read it as an option: name the revision another way (a sha, refs/heads/{})",
                name.trim_start_matches('-')
            ),
            RevsError::Dirty { files } => {
                let shown: Vec<&str> = files.iter().take(3).map(String::as_str).collect();
                let more = files.len().saturating_sub(shown.len());
                write!(
                    f,
                    "the working tree has uncommitted changes ({}{}): commit or stash them, or give --allow-dirty to measure the working tree itself as the new side",
                    shown.join(", "),
                    if more > 0 { format!(" and {more} more") } else { String::new() }
                )
            }
            RevsError::Git { what, why } => write!(f, "{what}: {why}"),
            RevsError::Cache { path, why } => write!(f, "{path}: {why}"),
            RevsError::Config { file, why } => write!(f, "{file}: {why}"),
            RevsError::Run(e) => e.fmt(f),
            RevsError::CommandFails { only_one, failures } => write!(
                f,
                "the command fails {}{}",
                failures.join("; and "),
                if *only_one { " only" } else { "" }
            ),
            RevsError::Harness { role, label, why } => {
                write!(f, "the harness failed in {role}'s worktree ({label}): {why}")
            }
            RevsError::HarnessBenchmark { name, why } => write!(f, "benchmark {name:?} {why}"),
            RevsError::NothingInCommon => write!(
                f,
                "the two harnesses have no benchmark in common: nothing to compare"
            ),
        }
    }
}

impl std::error::Error for RevsError {}

impl RevsError {
    /// A file or directory of plumb's cache (or a build's) that could not be used.
    pub(crate) fn io(path: &std::path::Path, e: std::io::Error) -> RevsError {
        RevsError::Cache {
            path: path.display().to_string(),
            why: e.to_string(),
        }
    }
}
