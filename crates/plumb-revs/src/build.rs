//! A revision's build: the command run through `sh -c` in its worktree, its output in the
//! entry's `build.log`, a stop (Ctrl-C, SIGTERM) passed on to the whole build, and the
//! marker of a finished build written last — so an interrupted or failed build is never
//! taken for a finished one, and its worktree is reused by the next try.
use crate::{Checkout, RevsError};
use plumb_model::quantity::Duration;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How a build ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Built {
    /// No build command was given.
    NotAsked,
    /// A finished build of the same tree and command was there.
    Reused,
    /// Built now, in this long.
    Done { time: Duration },
    /// The command failed: how, and the last lines of its output.
    Failed { how: String, tail: String },
    /// Stopped by the stop flag; the worktree is left for the next try.
    Interrupted,
}

/// Lines of a failed build's log shown.
const TAIL_LINES: usize = 20;

/// How long a stopped build is given to exit after SIGINT before it is killed.
const GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// Builds `c` with `command` unless a finished build is there; polls `stop` while it runs.
pub fn build(c: &Checkout, command: Option<&str>, stop: &AtomicBool) -> Result<Built, RevsError> {
    let Some(command) = command else {
        return Ok(Built::NotAsked);
    };
    if c.built {
        return Ok(Built::Reused);
    }
    let marker = c.marker();
    match std::fs::remove_file(&marker) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(RevsError::io(&marker, e))
        }
        _ => {}
    }
    let log_path = c.build_log();
    let log = File::create(&log_path).map_err(|e| RevsError::io(&log_path, e))?;
    let started = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(&c.dir)
        // A target directory set for the whole user would make both worktrees build into
        // one: each builds into its own.
        .env_remove("CARGO_TARGET_DIR")
        .stdin(Stdio::null())
        .stdout(log.try_clone().map_err(|e| RevsError::io(&log_path, e))?)
        .stderr(log)
        // Its own process group: a stop reaches every process of the build, not only sh.
        .process_group(0)
        .spawn()
        .map_err(|e| RevsError::io(&c.dir, e))?;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| RevsError::io(&c.dir, e))? {
            break status;
        }
        if stop.load(Ordering::Relaxed) {
            stop_group(&mut child);
            return Ok(Built::Interrupted);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let time = Duration::from(started.elapsed());
    if !status.success() {
        let how = match (
            status.code(),
            std::os::unix::process::ExitStatusExt::signal(&status),
        ) {
            (Some(code), _) => format!("exited with status {code}"),
            (None, Some(sig)) => format!("was killed by signal {sig}"),
            _ => "failed".to_string(),
        };
        return Ok(Built::Failed {
            how,
            tail: tail_of(&log_path),
        });
    }
    let tmp = c.entry.join("built.tmp");
    std::fs::write(&tmp, &c.key).map_err(|e| RevsError::io(&tmp, e))?;
    std::fs::rename(&tmp, &marker).map_err(|e| RevsError::io(&marker, e))?;
    Ok(Built::Done { time })
}

/// SIGINT to the build's group, as a terminal's Ctrl-C would; once its shell has gone
/// (or after the grace), SIGKILL to whatever of the group is left — a non-interactive
/// shell's background jobs ignore SIGINT.
fn stop_group(child: &mut std::process::Child) {
    let group = -(child.id() as libc::pid_t);
    // SAFETY: kill(2) with a negative pid signals that process group; no memory involved.
    unsafe { libc::kill(group, libc::SIGINT) };
    let deadline = Instant::now() + GRACE;
    while Instant::now() < deadline && !matches!(child.try_wait(), Ok(Some(_))) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: as above.
    unsafe { libc::kill(group, libc::SIGKILL) };
    let _ = child.wait();
}

/// The last lines of the log (at most 64 KiB read from its end).
fn tail_of(path: &std::path::Path) -> String {
    let mut text = String::new();
    if let Ok(mut f) = File::open(path) {
        let len = f.metadata().map_or(0, |m| m.len());
        let _ = f.seek(SeekFrom::Start(len.saturating_sub(64 * 1024)));
        let mut bytes = Vec::new();
        let _ = f.read_to_end(&mut bytes);
        text = String::from_utf8_lossy(&bytes).into_owned();
    }
    last_lines(&text, TAIL_LINES)
}

/// The last `n` lines of `text`, joined: what a failed build or harness said last.
pub fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn entry() -> (tempfile::TempDir, Checkout) {
        let d = tempfile::tempdir().unwrap();
        let c = Checkout {
            dir: d.path().to_path_buf(),
            entry: d.path().to_path_buf(),
            key: "k".into(),
            built: false,
        };
        (d, c)
    }

    #[test]
    fn a_build_runs_in_the_worktree_and_leaves_its_marker_last() {
        let (_d, c) = entry();
        let stop = AtomicBool::new(false);
        assert_eq!(build(&c, None, &stop).unwrap(), Built::NotAsked);
        let done = build(&c, Some("echo made > out && echo log line"), &stop).unwrap();
        assert!(matches!(done, Built::Done { .. }), "{done:?}");
        assert_eq!(
            std::fs::read_to_string(c.dir.join("out")).unwrap(),
            "made\n"
        );
        assert_eq!(
            std::fs::read_to_string(c.build_log()).unwrap(),
            "log line\n"
        );
        assert_eq!(std::fs::read_to_string(c.marker()).unwrap(), "k");
        let again = Checkout { built: true, ..c };
        assert_eq!(build(&again, Some("false"), &stop).unwrap(), Built::Reused);
    }

    #[test]
    fn a_failed_build_says_how_with_its_last_lines_and_leaves_no_marker() {
        let (_d, c) = entry();
        std::fs::write(c.marker(), "k").unwrap();
        let stop = AtomicBool::new(false);
        let out = build(&c, Some("seq 1 30; echo 'error: no' >&2; exit 3"), &stop).unwrap();
        let Built::Failed { how, tail } = out else {
            panic!("{out:?}")
        };
        assert_eq!(how, "exited with status 3");
        assert_eq!(tail.lines().count(), TAIL_LINES);
        assert!(tail.ends_with("30\nerror: no"), "{tail}");
        assert!(
            !c.marker().exists(),
            "a stale marker is removed before building"
        );
    }

    /// A stop during the build ends the whole group (the sleep under sh too), promptly.
    #[test]
    fn a_stop_ends_the_build_and_every_process_in_it() {
        let (_d, c) = entry();
        let stop = Arc::new(AtomicBool::new(false));
        let raise = stop.clone();
        // The stop comes once the build's sleep has started (it wrote its pid), however
        // long a busy machine takes to start it.
        let pid_file = c.dir.join("pid");
        std::thread::spawn(move || {
            let waited = Instant::now();
            while !pid_file.exists() && waited.elapsed() < std::time::Duration::from_secs(20) {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            raise.store(true, Ordering::Relaxed);
        });
        let started = Instant::now();
        let out = build(&c, Some("sleep 30 & echo $! > pid; wait"), &stop).unwrap();
        assert_eq!(out, Built::Interrupted);
        // Well before the sleep's 30 s: the stop ended it.
        assert!(started.elapsed() < std::time::Duration::from_secs(25));
        let pid = std::fs::read_to_string(c.dir.join("pid")).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(100));
        let alive = std::path::Path::new(&format!("/proc/{}", pid.trim())).exists()
            && !std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
                .unwrap_or_default()
                .contains(") Z ");
        assert!(!alive, "the build's sleep was left running");
        assert!(!c.marker().exists());
    }
}
