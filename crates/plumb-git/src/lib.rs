//! git, asked as a program with arguments (never through a shell), for the history
//! (which commit a result belongs to, where the store lives) and for plumb revs (what a
//! revision names, worktrees).
//!
//! One rule for the environment: every question is about the directory plumb is asked
//! in, so `GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE` and `GIT_COMMON_DIR` are cleared
//! for every call. A git hook exports them for its own repository (`GIT_INDEX_FILE` even
//! relative to its own top): kept, a result measured in another repository from inside
//! the hook would be keyed to the hook's commit and kept in the hook's store, and a
//! worktree plumb made would be checked out against the hook's index.
use std::fmt;
use std::path::Path;
use std::process::Command;

/// The variables with which the environment points git at a repository.
const REDIRECTING: [&str; 4] = [
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
];

/// Why a git command failed: it could not be started, or it failed saying why (its
/// stderr's last lines), or without a word (its exit status).
#[derive(Debug)]
pub enum GitFailed {
    NotRun(std::io::Error),
    Said(String),
    Status { command: String, code: i32 },
}

impl fmt::Display for GitFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GitFailed::NotRun(e) => write!(f, "cannot run git: {e}"),
            GitFailed::Said(said) => f.write_str(said),
            GitFailed::Status { command, code } => {
                write!(f, "git {command} exited with status {code}")
            }
        }
    }
}

impl std::error::Error for GitFailed {}

/// git's stdout for `args` in `dir`, trimmed.
pub fn git(dir: &Path, args: &[&str]) -> Result<String, GitFailed> {
    git_with(dir, args, &[])
}

/// As `git`, with the variables `env` set (a scratch index, say).
pub fn git_with(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> Result<String, GitFailed> {
    git_untrimmed(dir, args, env).map(|s| s.trim().to_string())
}

/// git's whole stdout (porcelain output starts with meaningful spaces).
pub fn git_untrimmed(
    dir: &Path,
    args: &[&str],
    env: &[(&str, &Path)],
) -> Result<String, GitFailed> {
    let mut cmd = Command::new("git");
    cmd.arg("-C").arg(dir).args(args);
    for k in REDIRECTING {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().map_err(GitFailed::NotRun)?;
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    // git's own last few lines: the cause ("unable to write file") is often not the last.
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let said = lines[lines.len().saturating_sub(3)..].join("; ");
    Err(match out.status.code() {
        Some(code) if said.is_empty() => GitFailed::Status {
            command: args.first().unwrap_or(&"").to_string(),
            code,
        },
        _ => GitFailed::Said(said),
    })
}

/// A sha's first 10 characters, as people say it (a label given with --commit outside git
/// may be any text: cut at a character, never inside one).
pub fn short(sha: &str) -> &str {
    match sha.char_indices().nth(10) {
        Some((at, _)) => &sha[..at],
        None => sha,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(dir: &Path) {
        for args in [
            &["init", "-q"][..],
            &[
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "commit",
                "-q",
                "--allow-empty",
                "-m",
                "x",
            ],
        ] {
            git(dir, args).unwrap();
        }
    }

    /// A hook's variables name its own repository: a question about another directory is
    /// answered about that directory.
    #[test]
    fn the_environment_never_points_a_call_elsewhere() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        repo(a.path());
        repo(b.path());
        let head_b = git(b.path(), &["rev-parse", "HEAD"]).unwrap();
        let a_git = a.path().join(".git");
        let redirected = Command::new("git")
            .arg("-C")
            .arg(b.path())
            .args(["rev-parse", "HEAD"])
            .env("GIT_DIR", &a_git)
            .output()
            .unwrap();
        let head_a = git(a.path(), &["rev-parse", "HEAD"]).unwrap();
        // git itself follows GIT_DIR: the hazard this module removes.
        assert_eq!(String::from_utf8_lossy(&redirected.stdout).trim(), head_a);
        std::env::set_var("GIT_DIR", &a_git);
        let asked = git(b.path(), &["rev-parse", "HEAD"]);
        std::env::remove_var("GIT_DIR");
        assert_eq!(asked.unwrap(), head_b);
    }

    #[test]
    fn a_failure_says_gits_words_or_its_status() {
        let d = tempfile::tempdir().unwrap();
        let e = git(d.path(), &["rev-parse", "HEAD"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a git repository"), "{e}");
        assert_eq!(short("0123456789abcdef"), "0123456789");
        assert_eq!(short("v1"), "v1");
    }
}
