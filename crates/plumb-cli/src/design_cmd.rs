//! `plumb design check FILE.toml`: the workload file read and checked, then the design
//! layer's red flags against this machine's caches and memory, for the shared design and
//! each benchmark's own. Nothing is measured; it takes milliseconds.
use crate::args::{DesignArgs, DesignCommand};
use crate::exit::{self, CliError, Outcome};
use plumb_model::quantity::ByteSize;
use plumb_model::{parse_workload_file, Design, WorkloadFile};
use plumb_report::render_design_check;
use std::path::Path;

pub fn run(a: DesignArgs) -> Result<Outcome, CliError> {
    match a.command {
        DesignCommand::Check { file, dir, json } => check(&file, dir.as_deref(), json),
    }
}

fn check(file: &Path, dir: Option<&Path>, json: bool) -> Result<Outcome, CliError> {
    let workload = read_workload(file, dir)?;
    let env = plumb_env::collect();
    let mut designs = vec![("design".to_string(), workload.design.clone())];
    for name in workload.benchmarks.keys() {
        designs.push((format!("benchmark {name:?}"), workload.for_benchmark(name)));
    }
    let checked: Vec<_> = designs
        .into_iter()
        .map(|(name, d)| {
            let found = plumb_analysis::design_checks(&d, &env);
            (name, d, found)
        })
        .collect();
    let flagged = checked
        .iter()
        .flat_map(|(_, _, f)| f)
        .any(|d| d.severity >= plumb_model::Severity::Warning);
    if json {
        let value: Vec<_> = (checked.iter())
            .map(|(name, d, found)| serde_json::json!({"name": name, "design": d, "diagnostics": found}))
            .collect();
        let text = serde_json::to_string_pretty(&value).expect("designs serialise");
        exit::print_stdout(&format!("{text}\n"))?;
    } else {
        let text: Vec<String> = (checked.iter())
            .map(|(name, d, found)| render_design_check(name, d, found))
            .collect();
        exit::print_stdout(&text.join("\n"))?;
    }
    // A red flag fails the design's gate (exit 1), as a regression fails compare's.
    Ok(if flagged {
        Outcome::GateFailed
    } else {
        Outcome::Done
    })
}

/// A workload file read, parsed and checked against the disk its data would live on
/// (`dir`, else the file's own directory): a working set larger than that filesystem is
/// refused, as an impossible value.
pub fn read_workload(file: &Path, dir: Option<&Path>) -> Result<WorkloadFile, CliError> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        CliError::msg(format!(
            "cannot read the workload file {}: {e}",
            file.display()
        ))
    })?;
    let workload = parse_workload_file(&text)
        .map_err(|e| CliError::msg(format!("workload file {}: {e}", file.display())))?;
    let dir = dir
        .map(Path::to_path_buf)
        .or_else(|| {
            file.parent().map(|p| {
                if p.as_os_str().is_empty() {
                    Path::new(".").to_path_buf()
                } else {
                    p.to_path_buf()
                }
            })
        })
        .unwrap_or_else(|| Path::new(".").to_path_buf());
    let disk = filesystem_size(&dir).map_err(|e| {
        CliError::msg(format!(
            "cannot read the size of the filesystem holding {}: {e}",
            dir.display()
        ))
    })?;
    let designs = std::iter::once(("".to_string(), workload.design.clone())).chain(
        (workload.benchmarks.keys())
            .map(|n| (format!("benchmarks.{n:?}."), workload.for_benchmark(n))),
    );
    for (scope, d) in designs {
        if let Some(e) = too_big_for_disk(&d, disk, &dir) {
            return Err(CliError::msg(format!(
                "workload file {}: `{scope}working_set` {e}",
                file.display()
            )));
        }
    }
    Ok(workload)
}

/// Why the design's working set cannot be stored here, when it cannot.
fn too_big_for_disk(d: &Design, disk: ByteSize, dir: &Path) -> Option<String> {
    match d.working_set_bytes() {
        Some((ws, estimated)) if ws > disk => {
            Some(format!(
            "{}{} is larger than the whole filesystem holding {} ({}): it cannot be stored here",
            plumb_model::format::bytes(ws),
            if estimated { " (records × record size)" } else { "" },
            dir.display(),
            plumb_model::format::bytes(disk)
        ))
        }
        _ => None,
    }
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

/// The workload file of `--workload`, read before anything runs, with every benchmark it
/// names among `names` (a table for a benchmark the run does not have is a typo that
/// would silently declare nothing).
pub fn workload_for_run(
    file: Option<&Path>,
    names: &[&str],
) -> Result<Option<WorkloadFile>, CliError> {
    let Some(file) = file else {
        return Ok(None);
    };
    let workload = read_workload(file, None)?;
    let unmatched = workload.unmatched(names);
    if !unmatched.is_empty() {
        return Err(CliError::msg(format!(
            "workload file {}: [benchmarks] names {} that this run does not have (its benchmarks: {})",
            file.display(),
            unmatched.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", "),
            names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
        )));
    }
    Ok(Some(workload))
}
