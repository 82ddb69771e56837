//! The commit a result belongs to, read from git: its sha, time, branch and whether the
//! working tree had changes; and where the history store lives by default.
use crate::{Commit, HistoryError};
use plumb_model::quantity::Timestamp;
use std::path::{Path, PathBuf};

/// git's answer to `args` in `dir`, trimmed (plumb-git: the environment never points it
/// at another repository, so a result saved from a hook is keyed to the repository it
/// was measured in); None when git is missing or says no.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    plumb_git::git(dir, args).ok()
}

/// The top of the repository `dir` is in; None outside one.
pub fn top_level(dir: &Path) -> Option<String> {
    git(dir, &["rev-parse", "--show-toplevel"])
}

/// The commit `rev` (HEAD when None) of the repository at `dir`; None outside a repository.
/// A named commit git does not know is an error: a history keyed by a typo is worse than none.
pub fn commit(dir: &Path, rev: Option<&str>) -> Result<Option<Commit>, HistoryError> {
    if top_level(dir).is_none() {
        return match rev {
            Some(sha) => Ok(Some(Commit {
                sha: sha.to_string(),
                time: Timestamp::now(),
                branch: None,
                dirty: false,
            })),
            None => Ok(None),
        };
    }
    let name = rev.unwrap_or("HEAD");
    let sha = git(
        dir,
        &["rev-parse", "--verify", &format!("{name}^{{commit}}")],
    )
    .ok_or_else(|| HistoryError::NoSuchCommit(name.to_string()))?;
    let secs: f64 = git(dir, &["show", "-s", "--format=%ct", &sha])
        .and_then(|t| t.parse().ok())
        .unwrap_or(0.0);
    let branch = git(dir, &["rev-parse", "--abbrev-ref", "HEAD"]).filter(|b| b != "HEAD");
    // Only the checked-out commit can be dirty.
    let dirty = rev.is_none()
        && git(dir, &["status", "--porcelain", "--untracked-files=no"])
            .is_some_and(|s| !s.is_empty());
    Ok(Some(Commit {
        sha,
        time: Timestamp::from_unix_secs_f64(secs),
        branch,
        dirty,
    }))
}

/// `.plumb/history.db` at the top of the git repository at `dir`, else in `dir`.
pub fn default_store(dir: &Path) -> PathBuf {
    let top = top_level(dir)
        .map(PathBuf::from)
        .unwrap_or_else(|| dir.to_path_buf());
    top.join(".plumb").join("history.db")
}

pub use plumb_git::short;
