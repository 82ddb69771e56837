//! `perf record` around a command. The command's output is its own (inherited); perf is
//! quiet. A stop request (Ctrl-C) is passed on to perf as SIGINT, which ends the command
//! and still writes what was sampled.

use crate::perf_tool::PerfTool;
use crate::ProfileError;
use plumb_model::{CallGraph, Exit};
use std::ffi::OsString;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What perf is asked to sample.
#[derive(Debug, Clone, PartialEq)]
pub struct Sampler {
    pub event: String,
    pub frequency_hz: u32,
    pub call_graph: CallGraph,
}

/// The default frequency: odd, so that sampling does not fall into step with activity
/// at round rates (a 1 kHz timer tick, a 100 Hz loop), and low enough that DWARF
/// unwinding's 16 KiB stack copy per sample costs little (≈ 16 MB/s of perf data).
pub const DEFAULT_FREQUENCY_HZ: u32 = 999;

#[derive(Debug)]
pub struct Recording {
    pub data: PathBuf,
    /// How the command ended (perf passes its status on).
    pub exit: Option<Exit>,
    /// Stopped by a stop request before the command ended.
    pub interrupted: bool,
}

/// Runs `perf record` on `argv`, writing `data`.
pub fn record(
    perf: &PerfTool,
    sampler: &Sampler,
    argv: &[OsString],
    data: &Path,
    stop: &AtomicBool,
) -> Result<Recording, ProfileError> {
    let mut child = perf
        .command()
        .arg("record")
        .arg("-q")
        .args(["-e", &sampler.event])
        .args(["-F", &sampler.frequency_hz.to_string()])
        .args(["--call-graph", sampler.call_graph.perf_arg()])
        .arg("-o")
        .arg(data)
        .arg("--")
        .args(argv)
        .spawn()
        .map_err(|e| ProfileError::PerfBroken(format!("cannot start perf record: {e}")))?;
    let mut interrupted = false;
    let status = loop {
        if let Some(status) = child
            .try_wait()
            .map_err(|e| ProfileError::PerfBroken(e.to_string()))?
        {
            break status;
        }
        if stop.load(Ordering::Relaxed) && !interrupted {
            interrupted = true;
            // SAFETY: kill(2) on the pid of our own child, which has not been reaped.
            unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if !data.exists() {
        return Err(ProfileError::PerfBroken(format!(
            "perf record wrote no data ({status})"
        )));
    }
    let exit = status
        .code()
        .map(Exit::Code)
        .or(status.signal().map(|signal| Exit::Signal { signal }));
    Ok(Recording {
        data: data.to_path_buf(),
        exit,
        interrupted,
    })
}

/// perf's records of lost samples in `data` (its buffer was full), from `perf report
/// --stats`; 0 when it says none.
pub fn lost_records(perf: &PerfTool, data: &Path) -> u64 {
    let Ok(out) = perf
        .command()
        .args(["report", "--stats", "-i"])
        .arg(data)
        .stderr(std::process::Stdio::null())
        .output()
    else {
        return 0;
    };
    parse_lost(&String::from_utf8_lossy(&out.stdout))
}

/// How long the command lived, from perf's task events: its first exec to its last
/// exit. None when perf recorded neither.
pub fn lifetime(perf: &PerfTool, data: &Path) -> Option<Duration> {
    let out = perf
        .command()
        .args([
            "script",
            "--show-task-events",
            "-F",
            "comm,pid,tid,time,event",
            "-i",
        ])
        .arg(data)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    parse_lifetime(&String::from_utf8_lossy(&out.stdout))
}

fn parse_lifetime(events: &str) -> Option<Duration> {
    let time = |line: &str| -> Option<f64> {
        let before = line.split(": PERF_RECORD").next()?;
        before
            .split_whitespace()
            .last()?
            .trim_end_matches(':')
            .parse()
            .ok()
    };
    let start = events
        .lines()
        .filter(|l| l.contains("PERF_RECORD_COMM exec"))
        .find_map(time)?;
    let end = events
        .lines()
        .filter(|l| l.contains("PERF_RECORD_EXIT"))
        .filter_map(time)
        .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.max(t))))?;
    (end >= start).then(|| Duration::from_secs_f64(end - start))
}

fn parse_lost(stats: &str) -> u64 {
    stats
        .lines()
        .skip_while(|l| !l.starts_with("Aggregated stats:"))
        .skip(1)
        .take_while(|l| !l.ends_with(" stats:"))
        .filter(|l| l.trim_start().starts_with("LOST"))
        .filter_map(|l| {
            l.split(':')
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse::<u64>()
                .ok()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lifetime_runs_from_exec_to_the_last_exit() {
        let events =
            "       perf-exec     0/0         0.000000: PERF_RECORD_COMM: perf-exec:24061/24061
              sh 24061/24061 23162.756783: PERF_RECORD_COMM exec: sh:24061/24061
              sh 24061/24061 23162.757907: cpu-clock: 
           sleep 24063/24063 23162.758794: PERF_RECORD_COMM exec: sleep:24063/24063
           sleep 24063/24063 23162.961639: PERF_RECORD_EXIT(24063:24063):(24061:24061)
              sh 24061/24061 23162.962018: PERF_RECORD_EXIT(24061:24061):(24060:24060)
";
        let d = parse_lifetime(events).unwrap();
        assert!((d.as_secs_f64() - 0.205235).abs() < 1e-6, "{d:?}");
        assert_eq!(parse_lifetime(""), None);
    }

    #[test]
    fn lost_records_are_read_from_the_aggregated_stats() {
        let stats = "\nAggregated stats:\n           TOTAL events:       1225\n            LOST events:          3  ( 0.1%)\n    LOST_SAMPLES events:          2  ( 0.2%)\n          SAMPLE events:       1119  (91.3%)\ncpu-clock stats:\n            LOST events:          3\n";
        assert_eq!(parse_lost(stats), 5);
        assert_eq!(parse_lost("Aggregated stats:\n SAMPLE events: 4\n"), 0);
    }
}
