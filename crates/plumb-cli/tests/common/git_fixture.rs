//! Git repositories the `plumb revs` and `history confirm` tests create: a C program whose
//! run time each commit sets (`work.h`), and the same time in `speed` for plumb's fake runs
//! (`--debug-fake-runs -- cat speed`: the verdict from the commit's time, not the clock's),
//! committed one version at a time.
use super::Env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The program: sleeps WORK_US microseconds (a sleep, not a loop, so a 5 % step is
/// 5 % on any machine, however its CPU is shared) or, when BROKEN is defined, does not
/// compile.
const PROGRAM: &str = r#"#include <time.h>
#include "work.h"
#ifdef BROKEN
#error this commit does not build
#endif
int main(void) {
    struct timespec t = { WORK_US / 1000000, (WORK_US % 1000000) * 1000L };
    nanosleep(&t, 0);
    return 0;
}
"#;

/// The build command the tests give.
pub const BUILD: &str = "cc -O2 -o prog prog.c";

/// One commit's version of the program.
#[derive(Clone, Copy)]
pub enum Version {
    /// Sleeps this many microseconds.
    Sleeps(u64),
    /// Does not compile.
    Broken,
}

/// git in `dir`, with an identity of its own (CI machines have none configured).
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "plumb test")
        .env("GIT_AUTHOR_EMAIL", "test@plumb.invalid")
        .env("GIT_COMMITTER_NAME", "plumb test")
        .env("GIT_COMMITTER_EMAIL", "test@plumb.invalid")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn work_h(v: Version) -> String {
    match v {
        Version::Sleeps(us) => format!("#define WORK_US {us}L\n"),
        Version::Broken => "#define WORK_US 1L\n#define BROKEN\n".to_string(),
    }
}

/// The version's time in plumb's duration grammar (`cat speed` under fake runs).
fn speed(v: Version) -> String {
    match v {
        Version::Sleeps(us) => format!("{us}us\n"),
        Version::Broken => "1us\n".to_string(),
    }
}

/// The command a fake run times by the commit's `speed` (`--debug-fake-runs`).
pub const FAKE: [&str; 2] = ["cat", "speed"];

/// A repository at `<env>/<name>` with one commit per version, oldest first; the
/// commits' full ids in the same order. `none` commits change only a note (a new tree
/// with the same program).
pub fn repo(env: &Env, name: &str, versions: &[Version]) -> (PathBuf, Vec<String>) {
    repo_with(env, name, versions, &[])
}

/// `repo`, with `files` (name, text) in every commit from the first.
pub fn repo_with(
    env: &Env,
    name: &str,
    versions: &[Version],
    files: &[(&str, &str)],
) -> (PathBuf, Vec<String>) {
    let dir = env.path(name);
    std::fs::create_dir_all(&dir).unwrap();
    git(&dir, &["init", "-q", "-b", "main", "."]);
    std::fs::write(dir.join("prog.c"), PROGRAM).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    let mut commits = Vec::new();
    for (i, v) in versions.iter().enumerate() {
        std::fs::write(dir.join("work.h"), work_h(*v)).unwrap();
        std::fs::write(dir.join("speed"), speed(*v)).unwrap();
        std::fs::write(dir.join("NOTE"), format!("commit {i}\n")).unwrap();
        git(&dir, &["add", "."]);
        git(&dir, &["commit", "-q", "-m", &format!("commit {i}")]);
        commits.push(git(&dir, &["rev-parse", "HEAD"]));
    }
    (dir, commits)
}

/// Whether a C compiler is here; said when not, and under CI a failure.
pub fn have_cc() -> bool {
    let ok = Command::new("cc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        plumb_testkit::skip("no C compiler (cc)");
    }
    ok
}
