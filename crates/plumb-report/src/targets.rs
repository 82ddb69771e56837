//! The one path every output takes, for the CLI and the in-process harness alike: targets
//! checked before anything runs (an unwritable path, or two outputs to one file, should
//! cost no measurement), never truncated by the check, `-` for standard output, and
//! written after the run — whether it completed, failed or was interrupted — with the
//! whole result rescued to a temporary file when a target cannot be written.

use crate::Format;
use plumb_model::ResultDocument;
use std::fmt;
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

/// Where one output goes.
#[derive(Debug, Clone)]
pub struct ExportTarget {
    /// The option that named it, for messages (`--export-json`).
    pub option: &'static str,
    pub path: PathBuf,
    pub format: Format,
    /// Create missing parent directories when writing (the harness's default place,
    /// `target/plumb/`); a path the user gave must exist, and is checked before the run.
    pub create_dirs: bool,
}

impl ExportTarget {
    pub fn new(option: &'static str, path: PathBuf, format: Format) -> ExportTarget {
        ExportTarget {
            option,
            path,
            format,
            create_dirs: false,
        }
    }

    pub fn is_stdout(&self) -> bool {
        self.path.as_os_str() == "-"
    }
}

/// Why outputs could not be written: each says what was wrong and what to do.
#[derive(Debug)]
pub enum ExportError {
    /// Two options write one file (or both standard output).
    SameFile {
        first: &'static str,
        second: &'static str,
        path: PathBuf,
    },
    /// A path that cannot be opened for writing, found before the run.
    CannotWrite {
        option: &'static str,
        path: PathBuf,
        error: std::io::Error,
    },
    /// Writing failed after the run: each failure, and where the whole result went.
    NotWritten {
        failures: Vec<String>,
        rescue: PathBuf,
        rescue_failed: Option<std::io::Error>,
    },
    /// Standard output failed (a full disk, `> /dev/full`): what was printed is not all
    /// there, which exit 0 would hide. A closed pipe (`| head`) is not this: the reader
    /// chose to stop.
    Stdout(std::io::Error),
    /// A file that could not be written (a page, an export, a chart, a manifest).
    Written {
        path: PathBuf,
        error: std::io::Error,
    },
    /// An output directory that cannot be made or written into, found before the run.
    Directory {
        option: &'static str,
        dir: PathBuf,
        error: std::io::Error,
    },
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::SameFile {
                first,
                second,
                path,
            } => write!(
                f,
                "{first} and {second} both write {}: give each its own file",
                path.display()
            ),
            ExportError::CannotWrite {
                option,
                path,
                error,
            } => write!(f, "{option}: cannot write {}: {error}", path.display()),
            ExportError::NotWritten {
                failures,
                rescue,
                rescue_failed,
            } => {
                f.write_str(&failures.join("; "))?;
                match rescue_failed {
                    None => write!(f, "; the full result was saved to {}", rescue.display()),
                    Some(e) => write!(f, "; saving it to {} failed too: {e}", rescue.display()),
                }
            }
            ExportError::Stdout(e) => write!(f, "cannot write to standard output: {e}"),
            ExportError::Written { path, error } => {
                write!(f, "cannot write {}: {error}", path.display())
            }
            ExportError::Directory { option, dir, error } => {
                write!(f, "{option}: cannot write into {}: {error}", dir.display())
            }
        }
    }
}

impl std::error::Error for ExportError {}

/// Refuses two outputs to one file (or to stdout), then opens each path for writing
/// without truncating it, to fail early on a bad path. A file this check creates is
/// removed again, so an aborted run leaves no empty files.
pub fn check(targets: &[ExportTarget]) -> Result<(), ExportError> {
    for (i, t) in targets.iter().enumerate() {
        if let Some(other) = targets[..i].iter().find(|o| same_path(&o.path, &t.path)) {
            return Err(ExportError::SameFile {
                first: other.option,
                second: t.option,
                path: t.path.clone(),
            });
        }
        if t.is_stdout() || t.create_dirs {
            continue;
        }
        let existed = t.path.exists();
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&t.path)
            .map_err(|error| ExportError::CannotWrite {
                option: t.option,
                path: t.path.clone(),
                error,
            })?;
        if !existed {
            let _ = std::fs::remove_file(&t.path);
        }
    }
    Ok(())
}

/// The same path, or two paths to one existing file.
pub fn same_path(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// `text` written whole to `path` (`-`: standard output): the one place a page, an
/// export, a chart or a manifest reaches its file.
pub fn write_text(path: &Path, text: &str) -> Result<(), ExportError> {
    if path.as_os_str() == "-" {
        return print_stdout(text);
    }
    std::fs::write(path, text).map_err(|error| ExportError::Written {
        path: path.to_path_buf(),
        error,
    })
}

/// A directory of outputs (`plumb profile --out`, `--svg-dir`, `--hgrm-dir`): made when
/// absent and proven writable before anything is measured, so an unwritable place costs
/// no run.
pub struct OutputDir(PathBuf);

impl OutputDir {
    pub fn prepare(option: &'static str, dir: &Path) -> Result<OutputDir, ExportError> {
        let refused = |error| ExportError::Directory {
            option,
            dir: dir.to_path_buf(),
            error,
        };
        std::fs::create_dir_all(dir).map_err(refused)?;
        let probe = dir.join(".plumb-write-check");
        std::fs::write(&probe, b"").map_err(refused)?;
        let _ = std::fs::remove_file(probe);
        Ok(OutputDir(dir.to_path_buf()))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Each `(name, text)` written into the directory; the paths written, in order.
    pub fn write_files<N: AsRef<str>, T: AsRef<str>>(
        &self,
        files: &[(N, T)],
    ) -> Result<Vec<PathBuf>, ExportError> {
        files
            .iter()
            .map(|(name, text)| {
                let path = self.0.join(name.as_ref());
                write_text(&path, text.as_ref()).map(|()| path)
            })
            .collect()
    }
}

/// Prints to stdout without panicking when it is closed (`… | head`: the reader chose to
/// stop, so the rest is not wanted and that is not an error); any other failure to write
/// (`> /dev/full`) is an error, so the exit code does not say all was printed.
pub fn print_stdout(text: &str) -> Result<(), ExportError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(ExportError::Stdout(e)),
        _ => Ok(()),
    }
}

/// Prints the human-readable report: to stdout, or to stderr when an export takes stdout.
pub fn print_report(targets: &[ExportTarget], report: &str) -> Result<(), ExportError> {
    if targets.iter().any(ExportTarget::is_stdout) {
        eprint!("{report}");
        Ok(())
    } else {
        print_stdout(report)
    }
}

/// Saves the file targets (not stdout): the raw samples reach disk before the analysis
/// and the report, which a closed stdout or a bug could still stop.
pub fn save_early(targets: &[ExportTarget], doc: &ResultDocument) -> Result<(), ExportError> {
    let files: Vec<&ExportTarget> = targets.iter().filter(|t| !t.is_stdout()).collect();
    write(&files, doc)
}

/// Writes every target. If one fails, the JSON result is saved to a rescue file in the
/// temporary directory so the samples are not lost, and the error names it.
pub fn write_all(targets: &[ExportTarget], doc: &ResultDocument) -> Result<(), ExportError> {
    write(&targets.iter().collect::<Vec<_>>(), doc)
}

fn write(targets: &[&ExportTarget], doc: &ResultDocument) -> Result<(), ExportError> {
    let mut failures = Vec::new();
    for t in targets {
        let text = t.format.render(doc);
        if t.is_stdout() {
            if let Err(e) = print_stdout(&text) {
                failures.push(e.to_string());
            }
            continue;
        }
        let parent = t.path.parent().filter(|d| !d.as_os_str().is_empty());
        let made = match parent {
            Some(dir) if t.create_dirs => std::fs::create_dir_all(dir),
            _ => Ok(()),
        };
        if let Err(e) = made.and_then(|()| std::fs::write(&t.path, text)) {
            failures.push(format!("cannot write {}: {e}", t.path.display()));
        }
    }
    if failures.is_empty() {
        return Ok(());
    }
    let rescue = std::env::temp_dir().join(format!("plumb-rescue-{}.json", std::process::id()));
    let rescue_failed = std::fs::write(&rescue, doc.to_json()).err();
    Err(ExportError::NotWritten {
        failures,
        rescue,
        rescue_failed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_outputs_to_one_file_and_an_unwritable_path_are_refused_before_anything_runs() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        let both = [
            ExportTarget::new("--export-json", p.clone(), Format::Json),
            ExportTarget::new("--export-markdown", p.clone(), Format::Markdown),
        ];
        let e = check(&both).unwrap_err().to_string();
        assert!(
            e.starts_with("--export-json and --export-markdown both write"),
            "{e}"
        );
        let nowhere = [ExportTarget::new(
            "--export-csv",
            "/proc/nope/r.csv".into(),
            Format::Csv,
        )];
        let e = check(&nowhere).unwrap_err().to_string();
        assert!(
            e.starts_with("--export-csv: cannot write /proc/nope/r.csv"),
            "{e}"
        );
        // The check creates nothing and truncates nothing.
        std::fs::write(&p, "kept").unwrap();
        check(&[ExportTarget::new("--export-json", p.clone(), Format::Json)]).unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "kept");
        let fresh = dir.path().join("fresh.json");
        check(&[ExportTarget::new(
            "--export-json",
            fresh.clone(),
            Format::Json,
        )])
        .unwrap();
        assert!(!fresh.exists());
    }

    #[test]
    fn a_target_that_fails_after_the_run_rescues_the_whole_result() {
        let dir = tempfile::tempdir().unwrap();
        let doc = crate::fixture::document();
        let made = ExportTarget {
            create_dirs: true,
            ..ExportTarget::new("--export-json", dir.path().join("a/b/r.json"), Format::Json)
        };
        let gone = ExportTarget::new(
            "--export-csv",
            dir.path().join("missing/r.csv"),
            Format::Csv,
        );
        let e = write_all(&[made, gone], &doc).unwrap_err();
        assert!(
            dir.path().join("a/b/r.json").exists(),
            "directories made where asked"
        );
        let ExportError::NotWritten {
            rescue,
            rescue_failed: None,
            ..
        } = &e
        else {
            panic!("{e}");
        };
        assert!(e.to_string().contains("cannot write"), "{e}");
        let saved = ResultDocument::from_json(&std::fs::read_to_string(rescue).unwrap());
        assert_eq!(saved.unwrap().benchmarks, doc.benchmarks);
        std::fs::remove_file(rescue).unwrap();
    }
}
