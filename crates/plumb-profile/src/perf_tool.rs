//! Finding `perf` and whether it may sample here, each failure as one line with its fix.

use crate::ProfileError;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[derive(Debug, Clone)]
pub struct PerfTool {
    pub path: PathBuf,
    /// `perf version 6.1.187`.
    pub version: String,
}

impl PerfTool {
    /// `perf` on `PATH` (or `$PLUMB_PERF`), checked by running `perf version`.
    pub fn find() -> Result<PerfTool, ProfileError> {
        let path = std::env::var_os("PLUMB_PERF")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("perf"));
        let out = Command::new(&path)
            .arg("version")
            .stdin(Stdio::null())
            .output()
            .map_err(|_| ProfileError::NoPerf)?;
        let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
        // Debian's /usr/bin/perf is a wrapper that fails when no perf matches the kernel.
        if !out.status.success() || !version.starts_with("perf version") {
            let said = String::from_utf8_lossy(&out.stderr);
            return Err(ProfileError::PerfBroken(first_line(&said)));
        }
        Ok(PerfTool { path, version })
    }

    pub fn command(&self) -> Command {
        Command::new(&self.path)
    }

    /// Tries the event on `true` before the real run, so that a forbidden or unknown
    /// event costs a line, not a profile.
    pub fn check_event(&self, event: &str, dir: &Path) -> Result<(), ProfileError> {
        let data = dir.join(".plumb-perf-check.data");
        let out = self
            .command()
            .args(["record", "-q", "-e", event, "-o"])
            .arg(&data)
            .args(["--", "true"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .output()
            .map_err(|e| ProfileError::PerfBroken(e.to_string()))?;
        let _ = std::fs::remove_file(&data);
        if out.status.success() {
            return Ok(());
        }
        Err(refusal(&String::from_utf8_lossy(&out.stderr), event))
    }
}

/// perf_event_open refused: the kernel's paranoia setting, or a container's seccomp.
fn refusal(said: &str, event: &str) -> ProfileError {
    let lower = said.to_lowercase();
    if lower.contains("permission") || lower.contains("paranoid") || lower.contains("eacces") {
        let paranoid = paranoid_level().map_or("unknown".to_string(), |l| l.to_string());
        ProfileError::Forbidden { paranoid }
    } else if lower.contains("not supported") || lower.contains("event syntax") {
        ProfileError::NoEvent(event.to_string())
    } else {
        ProfileError::PerfBroken(first_line(said))
    }
}

/// `kernel.perf_event_paranoid`: 2 lets a user profile their own processes in user
/// space, 3 (Debian's and Android's extra level) forbids unprivileged users everything.
pub fn paranoid_level() -> Option<i32> {
    std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
        .ok()?
        .trim()
        .parse()
        .ok()
}

fn first_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("no message")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_permission_refusal_names_the_setting() {
        let e = refusal(
            "Error:\nAccess to performance monitoring and observability operations is limited.\nConsider adjusting /proc/sys/kernel/perf_event_paranoid setting",
            "cpu-clock",
        );
        assert!(matches!(e, ProfileError::Forbidden { .. }), "{e:?}");
        assert!(e
            .to_string()
            .contains("sysctl kernel.perf_event_paranoid=2"));
    }

    #[test]
    fn an_unsupported_event_is_named() {
        let e = refusal("event syntax error: 'cyclez'", "cyclez");
        assert_eq!(e, ProfileError::NoEvent("cyclez".into()));
    }
}
