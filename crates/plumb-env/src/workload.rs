//! A workload file (`--workload`, `plumb design check`) read, parsed and checked against
//! this machine's disk: a working set larger than the filesystem its data would live on
//! is refused as an impossible value; for a run, every benchmark it names must be one
//! the run has.
use plumb_model::quantity::ByteSize;
use plumb_model::{format, parse_workload_file, Design, DesignError, WorkloadFile};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a workload file cannot be used.
#[derive(Debug)]
pub enum WorkloadError {
    Unreadable {
        file: PathBuf,
        cause: std::io::Error,
    },
    Malformed {
        file: PathBuf,
        error: DesignError,
    },
    NoDiskSize {
        dir: PathBuf,
        cause: std::io::Error,
    },
    /// A `working_set` (of the shared design: `scope` empty, or of a benchmark) larger
    /// than the filesystem holding `dir`.
    TooBig {
        file: PathBuf,
        scope: String,
        working_set: ByteSize,
        estimated: bool,
        dir: PathBuf,
        disk: ByteSize,
    },
    /// `[benchmarks]` tables for benchmarks the run does not have.
    Unmatched {
        file: PathBuf,
        unmatched: Vec<String>,
        names: Vec<String>,
    },
}

impl fmt::Display for WorkloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quoted = |v: &[String]| {
            v.iter()
                .map(|n| format!("{n:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            WorkloadError::Unreadable { file, cause } => write!(
                f,
                "cannot read the workload file {}: {cause}",
                file.display()
            ),
            WorkloadError::Malformed { file, error } => {
                write!(f, "workload file {}: {error}", file.display())
            }
            WorkloadError::NoDiskSize { dir, cause } => write!(
                f,
                "cannot read the size of the filesystem holding {}: {cause}",
                dir.display()
            ),
            WorkloadError::TooBig {
                file,
                scope,
                working_set,
                estimated,
                dir,
                disk,
            } => write!(
                f,
                "workload file {}: `{scope}working_set` {}{} is larger than the whole filesystem holding {} ({}): it cannot be stored here",
                file.display(),
                format::bytes(*working_set),
                if *estimated { " (records × record size)" } else { "" },
                dir.display(),
                format::bytes(*disk)
            ),
            WorkloadError::Unmatched {
                file,
                unmatched,
                names,
            } => write!(
                f,
                "workload file {}: [benchmarks] names {} that this run does not have (its benchmarks: {})",
                file.display(),
                quoted(unmatched),
                quoted(names)
            ),
        }
    }
}

impl std::error::Error for WorkloadError {}

/// `file` read, parsed and checked against the disk its data would live on (`dir`, else
/// the file's own directory).
pub fn read_workload(file: &Path, dir: Option<&Path>) -> Result<WorkloadFile, WorkloadError> {
    let text = std::fs::read_to_string(file).map_err(|cause| WorkloadError::Unreadable {
        file: file.to_path_buf(),
        cause,
    })?;
    let workload = parse_workload_file(&text).map_err(|error| WorkloadError::Malformed {
        file: file.to_path_buf(),
        error,
    })?;
    let dir = match dir.or(file.parent()) {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let disk = filesystem_size(&dir).map_err(|cause| WorkloadError::NoDiskSize {
        dir: dir.clone(),
        cause,
    })?;
    let designs = std::iter::once((String::new(), workload.design.clone())).chain(
        (workload.benchmarks.keys())
            .map(|n| (format!("benchmarks.{n:?}."), workload.for_benchmark(n))),
    );
    for (scope, d) in designs {
        if let Some((working_set, estimated)) = too_big(&d, disk) {
            return Err(WorkloadError::TooBig {
                file: file.to_path_buf(),
                scope,
                working_set,
                estimated,
                dir,
                disk,
            });
        }
    }
    Ok(workload)
}

/// The workload file of a run's `--workload`, read before anything runs, with every
/// benchmark it names among `names` (a table for a benchmark the run does not have is a
/// typo that would silently declare nothing).
pub fn workload_for_run(
    file: Option<&Path>,
    names: &[&str],
) -> Result<Option<WorkloadFile>, WorkloadError> {
    let Some(file) = file else {
        return Ok(None);
    };
    let workload = read_workload(file, None)?;
    let unmatched = workload.unmatched(names);
    if !unmatched.is_empty() {
        return Err(WorkloadError::Unmatched {
            file: file.to_path_buf(),
            unmatched: unmatched.into_iter().map(str::to_string).collect(),
            names: names.iter().map(|n| n.to_string()).collect(),
        });
    }
    Ok(Some(workload))
}

/// The design's working set and whether it is estimated, when larger than `disk`.
fn too_big(d: &Design, disk: ByteSize) -> Option<(ByteSize, bool)> {
    d.working_set_bytes().filter(|(ws, _)| *ws > disk)
}

/// The total size of the filesystem holding `dir` (statvfs: blocks × fragment size).
fn filesystem_size(dir: &Path) -> std::io::Result<ByteSize> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes())
        .map_err(|_| std::io::Error::other("the path holds a NUL byte"))?;
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `path` is a valid NUL-terminated string and `st` a writable statvfs.
    if unsafe { libc::statvfs(path.as_ptr(), &mut st) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(ByteSize(
        (st.f_blocks as u64).saturating_mul(st.f_frsize as u64),
    ))
}
