//! One harness for the end-to-end tests: run the real `plumb` binary in a temp dir.
#![allow(dead_code)]

pub mod browser;
pub mod git_fixture;
pub mod history;
pub mod netns;
pub mod nginx;
pub mod postgres;

/// Other tools' real exports, as plumb-import's tests keep them (their README says how
/// each was made).
pub const FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../plumb-import/tests/fixtures"
);

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub struct Env {
    pub dir: tempfile::TempDir,
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Env {
    pub fn new() -> Env {
        Env {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `examples/<name>.c` compiled with `cc -O2` into this directory; None (saying
    /// so) where there is no C compiler.
    pub fn compiled_example(&self, name: &str) -> Option<PathBuf> {
        self.compiled_example_as(name, name, &[])
    }

    /// `examples/<name>.c` compiled with `cc -O2` and `flags` into `exe_name`.
    pub fn compiled_example_as(
        &self,
        name: &str,
        exe_name: &str,
        flags: &[&str],
    ) -> Option<PathBuf> {
        let source = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples")
            .join(format!("{name}.c"));
        let exe = self.path(exe_name);
        let built = Command::new("cc")
            .arg("-O2")
            .args(flags)
            .arg("-o")
            .arg(&exe)
            .arg(&source)
            .status();
        if built.is_ok_and(|s| s.success()) {
            Some(exe)
        } else {
            plumb_testkit::skip("no C compiler (cc)");
            None
        }
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_plumb"));
        c.args(args)
            .current_dir(self.dir.path())
            .env("NO_COLOR", "1");
        c
    }

    pub fn plumb(&self, args: &[&str]) -> Run {
        self.plumb_in(self.dir.path(), args)
    }

    /// plumb with `args`, run in `dir` (a repository the test made, say).
    pub fn plumb_in(&self, dir: &Path, args: &[&str]) -> Run {
        Run::of(
            self.command(args)
                .current_dir(dir)
                .output()
                .expect("plumb runs"),
        )
    }

    /// Runs plumb with `args`, sends it `signal` (`-INT`, `-TERM`…) after `after`, and
    /// returns how it ended.
    pub fn plumb_signalled(&self, args: &[&str], signal: &str, after: Duration) -> Run {
        self.plumb_signalled_in(self.dir.path(), args, signal, after)
    }

    /// `plumb_signalled`, run in `dir`.
    pub fn plumb_signalled_in(
        &self,
        dir: &Path,
        args: &[&str],
        signal: &str,
        after: Duration,
    ) -> Run {
        let child = self
            .command(args)
            .current_dir(dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("plumb starts");
        std::thread::sleep(after);
        let killed = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(killed.success());
        Run::of(child.wait_with_output().expect("plumb ends"))
    }

    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).expect("write fixture");
        p
    }
}

/// A result of a test's own making: default levels, no producer, on `environment`; its
/// benchmarks are the test's to add.
pub fn test_document(environment: plumb_model::Environment) -> plumb_model::ResultDocument {
    let settings = plumb_model::Settings::default_levels(plumb_model::ProducerSettings::None);
    let invocation = plumb_model::Invocation::current();
    plumb_model::ResultDocument::new("0.0.0-test", invocation, environment, settings)
}

pub fn read_doc(path: &Path) -> plumb_model::ResultDocument {
    let text = std::fs::read_to_string(path).expect("result file exists");
    plumb_model::ResultDocument::from_json(&text).expect("a valid plumb result")
}

impl Run {
    /// How a finished plumb ended: its exit code (-1 for a signal) and its output.
    pub fn of(out: Output) -> Run {
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    pub fn assert_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "exit code\n--- stdout\n{}\n--- stderr\n{}",
            self.stdout, self.stderr
        );
        self
    }
}

/// An HTTP server on a free port (threads, blocking sockets) that answers every request
/// with 200, freezing for `stall` at every `every`-th request; returns the port. The
/// freeze is the whole server's: requests on other connections wait it out too.
pub fn stalling_server(every: u64, stall: Duration) -> u16 {
    let stalled_until = Mutex::new(Instant::now());
    let addr = scripted_server("127.0.0.1:0", move |n, _, _| {
        let until = {
            let mut u = stalled_until.lock().unwrap();
            if n % every == 0 {
                *u = Instant::now() + stall;
            }
            *u
        };
        Reply::After(until.saturating_duration_since(Instant::now()), ok_reply())
    });
    addr.port()
}

/// What a scripted server does with one request.
pub enum Reply {
    /// Writes these bytes and keeps the connection.
    Send(Vec<u8>),
    /// Writes these bytes, then closes the connection.
    SendAndClose(Vec<u8>),
    /// Closes the connection without answering.
    Close,
    /// Never answers (keeps the connection open).
    Silent,
    /// Waits, then writes these bytes and keeps the connection.
    After(Duration, Vec<u8>),
}

/// `HTTP/1.1 200 OK` with a two-byte body.
pub fn ok_reply() -> Vec<u8> {
    b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".to_vec()
}

/// A server (threads, blocking sockets) on `bind` whose every answer `script` decides
/// from: the request's number (from 1, over all connections), its number on its
/// connection (from 1), and the time since the server's first request.
pub fn scripted_server(
    bind: &str,
    script: impl Fn(u64, u64, Duration) -> Reply + Send + Sync + 'static,
) -> std::net::SocketAddr {
    let listener = TcpListener::bind(bind).unwrap();
    let addr = listener.local_addr().unwrap();
    let script = Arc::new(script);
    let count = Arc::new(AtomicU64::new(0));
    let first = Arc::new(Mutex::new(None::<Instant>));
    std::thread::spawn(move || {
        for sock in listener.incoming() {
            let Ok(mut sock) = sock else { continue };
            let (script, count, first) = (script.clone(), count.clone(), first.clone());
            std::thread::spawn(move || {
                let _ = sock.set_nodelay(true);
                let mut buf = Vec::new();
                let mut chunk = [0u8; 2048];
                for on_conn in 1u64.. {
                    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                        match sock.read(&mut chunk) {
                            Ok(0) | Err(_) => return,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                    }
                    let end = buf.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
                    buf.drain(..end);
                    let n = count.fetch_add(1, Ordering::SeqCst) + 1;
                    let since = first
                        .lock()
                        .unwrap()
                        .get_or_insert_with(Instant::now)
                        .elapsed();
                    let (bytes, close) = match script(n, on_conn, since) {
                        Reply::Send(b) => (b, false),
                        Reply::SendAndClose(b) => (b, true),
                        Reply::Close => return,
                        Reply::Silent => {
                            std::thread::sleep(Duration::from_secs(3600));
                            return;
                        }
                        Reply::After(d, b) => {
                            std::thread::sleep(d);
                            (b, false)
                        }
                    };
                    if sock.write_all(&bytes).is_err() || close {
                        return;
                    }
                }
            });
        }
    });
    addr
}
