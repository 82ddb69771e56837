//! A spawner that runs nothing: each command "takes" the time its text says, exactly, so
//! tests can check run counts, order, failures, interruption and rendered output without
//! a clock (hyperfine's `MockExecutor`, for the same reason).
//!
//! What a fake command measures, from its argv:
//! - `sleep S` — S seconds;
//! - `cat FILE` — the time FILE (in the run's directory) holds, in plumb's duration grammar
//!   (`10ms`), so each worktree of `plumb revs` can take its own; status 1 when FILE
//!   cannot be read or holds no duration, as `cat` would fail;
//! - `NAME TIME` — TIME, in plumb's duration grammar (`fast 5ms`);
//! - `… exit N` at the end — exits with status N (`fail 2ms exit 3`);
//! - `sh -c SCRIPT` (prepare, cleanup, the shell) — 1 ms, status N if SCRIPT has `exit N`;
//! - anything else — 1 ms, status 0.
//!
//! User time is half the wall time, system time a tenth, peak RSS 1 MiB.

use crate::spawner::{Launch, RunRecord, SpawnError, Spawner};
use crate::OutputPolicy;
use plumb_model::quantity::{ByteSize, Duration};
use plumb_model::Exit;
use std::cell::RefCell;
use std::io;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[derive(Debug, Default, Clone)]
pub struct FakeSpawner {
    /// Every run, in order: its argv joined by spaces.
    pub log: Rc<RefCell<Vec<String>>>,
    /// Raise this flag during the first run whose command line equals `on` and end that
    /// run by SIGINT, as Ctrl-C at a terminal does.
    pub interrupt: Option<(String, Arc<AtomicBool>)>,
}

impl FakeSpawner {
    pub fn new() -> Self {
        Self::default()
    }

    /// The runs so far.
    pub fn runs(&self) -> Vec<String> {
        self.log.borrow().clone()
    }
}

struct FakeLaunch {
    line: String,
    record: RunRecord,
    log: Rc<RefCell<Vec<String>>>,
    interrupt: Option<(String, Arc<AtomicBool>)>,
}

impl Spawner for FakeSpawner {
    fn prepare(
        &mut self,
        argv: &[String],
        dir: Option<&std::path::Path>,
        _: &OutputPolicy,
    ) -> io::Result<Box<dyn Launch>> {
        let (wall, code) = match argv {
            [cat, file] if cat == "cat" => held_in(&dir.unwrap_or(".".as_ref()).join(file)),
            _ => behaviour(argv),
        };
        Ok(Box::new(FakeLaunch {
            line: argv.join(" "),
            record: RunRecord {
                wall,
                user: wall.div_u64(2),
                sys: wall.div_u64(10),
                peak_rss: ByteSize(1 << 20),
                exit: Exit::Code(code),
            },
            log: self.log.clone(),
            interrupt: self.interrupt.clone(),
        }))
    }
}

/// `cat FILE`: the duration FILE holds, or a failure taking 1 ms.
fn held_in(file: &std::path::Path) -> (Duration, i32) {
    std::fs::read_to_string(file)
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .map_or((Duration::from_millis(1), 1), |wall| (wall, 0))
}

fn behaviour(argv: &[String]) -> (Duration, i32) {
    let one_ms = Duration::from_millis(1);
    let code_in = |words: &[&str]| {
        words
            .windows(2)
            .find(|w| w[0] == "exit")
            .and_then(|w| w[1].trim_end_matches(';').parse().ok())
            .unwrap_or(0)
    };
    if argv.len() == 3 && argv[0] == "sh" && argv[1] == "-c" {
        let words: Vec<&str> = argv[2].split_whitespace().collect();
        return (one_ms, code_in(&words));
    }
    let words: Vec<&str> = argv.iter().map(String::as_str).collect();
    let wall = match words.as_slice() {
        ["sleep", s, ..] => s.parse::<f64>().map_or(one_ms, Duration::from_secs_f64),
        [_, t, ..] => t.parse().unwrap_or(one_ms),
        _ => one_ms,
    };
    (wall, code_in(&words))
}

impl Launch for FakeLaunch {
    fn run_once(&mut self) -> Result<RunRecord, SpawnError> {
        self.log.borrow_mut().push(self.line.clone());
        if let Some((on, flag)) = &self.interrupt {
            if *on == self.line && !flag.swap(true, Ordering::Relaxed) {
                return Ok(RunRecord {
                    exit: Exit::Signal { signal: 2 },
                    ..self.record
                });
            }
        }
        Ok(self.record)
    }

    fn stderr_tail(&mut self, _: u64) -> String {
        format!("stderr of {}", self.line)
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(argv: &[&str]) -> RunRecord {
        let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
        FakeSpawner::new()
            .prepare(&argv, None, &OutputPolicy::Discard)
            .unwrap()
            .run_once()
            .unwrap()
    }

    #[test]
    fn commands_take_the_time_their_text_says() {
        assert_eq!(run(&["sleep", "0.25"]).wall, Duration::from_millis(250));
        assert_eq!(run(&["fast", "5ms"]).wall, Duration::from_millis(5));
        assert_eq!(run(&["fail", "2ms", "exit", "3"]).exit, Exit::Code(3));
        assert_eq!(run(&["sh", "-c", "echo x; exit 4"]).exit, Exit::Code(4));
        assert_eq!(run(&["true"]).wall, Duration::from_millis(1));
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("speed"), "10.5ms\n").unwrap();
        let in_dir = |file: &str| {
            let argv = ["cat".to_string(), file.to_string()];
            FakeSpawner::new()
                .prepare(&argv, Some(dir.path()), &OutputPolicy::Discard)
                .unwrap()
                .run_once()
                .unwrap()
        };
        let held = in_dir("speed");
        assert_eq!(
            (held.wall, held.exit),
            (Duration::from_micros(10_500), Exit::Code(0))
        );
        assert_eq!(in_dir("missing").exit, Exit::Code(1));
        let r = run(&["x", "10ms"]);
        assert_eq!(
            (r.user, r.sys),
            (Duration::from_millis(5), Duration::from_millis(1))
        );
    }
}
