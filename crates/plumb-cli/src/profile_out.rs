//! Where `plumb profile` writes: one directory, checked before perf runs (an unwritable
//! place should cost no profile), written whatever the outcome.

use crate::exit::CliError;
use plumb_model::{FoldedStack, Profile, ProfileSettings, ResultDocument};
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

    /// profile.json, profile.md, stacks.folded, (with samples) flamegraph.svg, and the
    /// page of plumb report, report.html.
    pub fn write(
        &self,
        doc: &ResultDocument,
        profile: &Profile,
        settings: Option<&ProfileSettings>,
        top: usize,
    ) -> Result<Vec<PathBuf>, CliError> {
        let md = plumb_report::profile_markdown_with_details(profile, settings, top);
        let mut files = vec![
            ("profile.json", doc.to_json()),
            ("profile.md", md),
            ("stacks.folded", FoldedStack::text(&profile.stacks)),
        ];
        if profile.samples > 0 {
            let subtitle = settings.map_or(String::new(), |s| {
                format!("{} samples, {}", profile.samples, s.describe())
            });
            let svg = plumb_report::flamegraph::svg(&profile.stacks, &profile.name, &subtitle)?;
            files.push(("flamegraph.svg", svg));
        }
        files.push((REPORT, plumb_report::render_html(&[("", doc)])));
        self.write_files(&files)
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

/// The page of plumb report among the outputs.
pub const REPORT: &str = "report.html";

pub fn written_lines(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    format!("\nwrote {}\n", names.join(", "))
}
