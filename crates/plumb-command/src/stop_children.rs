//! A stop signal sent to plumb alone stops the command in progress too.
//!
//! Ctrl-C in a terminal reaches the whole foreground process group, the benchmarked
//! command included; `kill PID`, a CI runner's timeout or a closed SSH session signal
//! plumb only, and plumb would wait for the command in progress (a 30 s run, 30 s) before
//! it could stop and save what it measured. While the runs go on, a thread blocked on
//! signal-hook's pipe (no wake-ups, nothing in the timed region) waits for a stop signal
//! and passes it on to every descendant of plumb; one that is still alive after a grace
//! period is killed. The run it cut short is not a measurement: the runner drops it, as
//! it drops a run during which Ctrl-C arrived.
//!
//! The descendants are found by reading `/proc` when the signal arrives, not by keeping
//! the child's pid where the timed loop would have to store it.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::{Handle, Signals};
use std::collections::BTreeMap;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a descendant has to end after the signal before it is killed.
const GRACE: Duration = Duration::from_secs(1);

/// Passes stop signals on to plumb's descendants for as long as it lives.
pub struct StopChildren {
    handle: Handle,
    thread: Option<JoinHandle<()>>,
}

impl StopChildren {
    /// None when the signals cannot be caught; the run goes on, and a stop then waits for
    /// the command in progress, as before.
    pub fn start() -> Option<StopChildren> {
        let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP]).ok()?;
        let handle = signals.handle();
        let thread = std::thread::Builder::new()
            .name("plumb-stop-children".into())
            .spawn(move || {
                for signal in signals.forever() {
                    stop_descendants(signal);
                }
            })
            .ok()?;
        Some(StopChildren {
            handle,
            thread: Some(thread),
        })
    }
}

impl Drop for StopChildren {
    fn drop(&mut self) {
        self.handle.close();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Sends `signal` to every live descendant of this process, then SIGKILL to those still
/// alive after the grace period.
fn stop_descendants(signal: i32) {
    let me = std::process::id() as i32;
    let signalled = descendants(me, &processes());
    for &pid in &signalled {
        // SAFETY: kill(2) with a pid read from /proc as a descendant of this process.
        unsafe { libc::kill(pid, signal) };
    }
    let deadline = Instant::now() + GRACE;
    while Instant::now() < deadline {
        let table = processes();
        if signalled.iter().all(|p| !table.contains_key(p)) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let table = processes();
    for pid in descendants(me, &table) {
        if signalled.contains(&pid) {
            // SAFETY: as above; the process did not end on the signal it was sent.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
}

/// Live processes (zombies left out: they have ended) and their parents, from `/proc`.
fn processes() -> BTreeMap<i32, i32> {
    let mut table = BTreeMap::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return table;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        if let Some((state, ppid)) = std::fs::read_to_string(entry.path().join("stat"))
            .ok()
            .and_then(|s| parse_stat(&s))
        {
            if state != 'Z' {
                table.insert(pid, ppid);
            }
        }
    }
    table
}

/// The state and parent from a `/proc/PID/stat` line: "pid (comm) state ppid …", where
/// comm may itself hold spaces and parentheses, so the fields are read after the last ')'.
fn parse_stat(stat: &str) -> Option<(char, i32)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    Some((state, ppid))
}

/// Every process below `root` in the table, children before their own children.
fn descendants(root: i32, table: &BTreeMap<i32, i32>) -> Vec<i32> {
    let mut found = Vec::new();
    let mut frontier = vec![root];
    while let Some(parent) = frontier.pop() {
        for (&pid, &ppid) in table {
            if ppid == parent && !found.contains(&pid) {
                found.push(pid);
                frontier.push(pid);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_read_after_a_command_name_with_parentheses() {
        let line = "4242 (a (b) c) S 17 4242 4242 0 -1 4194304";
        assert_eq!(parse_stat(line), Some(('S', 17)));
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn descendants_include_grandchildren_and_nothing_else() {
        let table = BTreeMap::from([(10, 1), (11, 10), (12, 11), (13, 1), (14, 10)]);
        let mut got = descendants(10, &table);
        got.sort();
        assert_eq!(got, vec![11, 12, 14]);
    }

    #[test]
    fn this_process_is_found_as_its_own_parent_s_descendant() {
        let table = processes();
        let me = std::process::id() as i32;
        let parent = table[&me];
        assert!(descendants(parent, &table).contains(&me));
    }
}
