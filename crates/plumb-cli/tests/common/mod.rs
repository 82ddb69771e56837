//! One harness for the end-to-end tests: run the real `plumb` binary in a temp dir.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_plumb"));
        c.args(args)
            .current_dir(self.dir.path())
            .env("NO_COLOR", "1");
        c
    }

    pub fn plumb(&self, args: &[&str]) -> Run {
        let out: Output = self.command(args).output().expect("plumb runs");
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).expect("write fixture");
        p
    }
}

pub fn read_doc(path: &Path) -> plumb_model::ResultDocument {
    let text = std::fs::read_to_string(path).expect("result file exists");
    plumb_model::ResultDocument::from_json(&text).expect("a valid plumb result")
}

impl Run {
    pub fn assert_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "exit code\n--- stdout\n{}\n--- stderr\n{}",
            self.stdout, self.stderr
        );
        self
    }
}
