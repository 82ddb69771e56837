//! For the tests: a repository made in a temporary directory by a shell script, with a git
//! identity of its own (CI machines have none configured).
use crate::Repo;
use std::process::Command;

/// The repository `script` makes (run by `sh -c` in a fresh directory).
pub fn repo(script: &str) -> (tempfile::TempDir, Repo) {
    let dir = tempfile::tempdir().unwrap();
    let ok = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir.path())
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .status()
        .unwrap()
        .success();
    assert!(ok, "{script}");
    let r = Repo::discover(dir.path()).unwrap();
    (dir, r)
}
