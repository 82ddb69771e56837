//! The repository's checked-in `plumb.toml`: the build command and each benchmark's
//! command, which `plumb history confirm` may run without being told on its command line.
//! Read from HEAD's committed tree (`git show HEAD:plumb.toml`), never from the working
//! directory: a file only dropped there, or edited and not committed, is not the
//! repository's word.
//!
//! ```toml
//! [revs]
//! build = "cargo build --release"
//!
//! [benchmarks]
//! # the benchmark's name in the history = the command that measures it
//! "parse" = "./target/release/parse input.json"
//! ```
use crate::{Repo, RevsError};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The file's name at the top of the repository.
pub const CONFIG_FILE: &str = "plumb.toml";

/// What `plumb.toml` says.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RepoConfig {
    #[serde(default)]
    pub revs: RevsSection,
    /// Benchmark name → the command that measures it.
    #[serde(default)]
    pub benchmarks: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RevsSection {
    /// The build command, run through `sh -c` in each revision's worktree.
    pub build: Option<String>,
}

impl RepoConfig {
    /// Parses the text of a `plumb.toml`.
    pub fn parse(text: &str) -> Result<RepoConfig, RevsError> {
        toml::from_str(text).map_err(|e| RevsError::Config {
            file: format!("{CONFIG_FILE} (as committed at HEAD)"),
            why: e.to_string().trim().to_string(),
        })
    }
}

impl Repo {
    /// HEAD's `plumb.toml`, or the default (nothing said) when HEAD has none.
    pub fn config(&self) -> Result<RepoConfig, RevsError> {
        match self.committed_file("HEAD", CONFIG_FILE) {
            Some(text) => RepoConfig::parse(&text),
            None => Ok(RepoConfig::default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_build_and_benchmark_commands() {
        let c = RepoConfig::parse(
            "[revs]\nbuild = \"make\"\n[benchmarks]\n\"parse · fast\" = \"./parse --fast\"\n",
        )
        .unwrap();
        assert_eq!(c.revs.build.as_deref(), Some("make"));
        assert_eq!(c.benchmarks["parse · fast"], "./parse --fast");
        assert_eq!(RepoConfig::parse("").unwrap(), RepoConfig::default());
    }

    #[test]
    fn a_malformed_or_misspelt_file_is_refused_with_where() {
        let e = RepoConfig::parse("[revs]\nbuidl = \"make\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("plumb.toml") && e.contains("buidl"), "{e}");
        let e = RepoConfig::parse("[revs\n").unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
    }
}
