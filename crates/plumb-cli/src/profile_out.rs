//! Where `plumb profile` writes: one directory, checked before perf runs (an unwritable
//! place should cost no profile), written whatever the outcome (plumb-report's
//! `profile_files` make the files).

use crate::exit::CliError;
use std::path::{Path, PathBuf};

pub struct Outputs {
    dir: PathBuf,
}

impl Outputs {
    /// Makes the directory when absent, and proves it writable.
    pub fn prepare(dir: &Path) -> Result<Outputs, CliError> {
        let cannot = |e: std::io::Error| {
            CliError::msg(format!("--out: cannot write into {}: {e}", dir.display()))
        };
        std::fs::create_dir_all(dir).map_err(cannot)?;
        let probe = dir.join(".plumb-write-check");
        std::fs::write(&probe, b"").map_err(cannot)?;
        let _ = std::fs::remove_file(probe);
        Ok(Outputs {
            dir: dir.to_path_buf(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn perf_data(&self) -> PathBuf {
        self.dir.join("perf.data")
    }

    pub fn write_files(&self, files: &[(&str, String)]) -> Result<Vec<PathBuf>, CliError> {
        let mut written = Vec::new();
        for (name, text) in files {
            let path = self.dir.join(name);
            std::fs::write(&path, text)
                .map_err(|e| CliError::msg(format!("cannot write {}: {e}", path.display())))?;
            written.push(path);
        }
        Ok(written)
    }
}

pub fn written_lines(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    format!("\nwrote {}\n", names.join(", "))
}
