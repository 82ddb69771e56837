//! Which commit each result `plumb history add` keeps is kept at, in one process for a
//! whole backfill: a manifest's line (`COMMIT FILE`), else `--commit`, else the file's own
//! record (asv's, pytest-benchmark's), else the working directory's HEAD. Each commit is
//! asked of git once, however many files name it.
use crate::{git, Commit, HistoryError};
use plumb_model::RecordedCommit;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where a result's commit was taken from, said when it is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommitFrom {
    Manifest,
    Given,
    /// The result file's own record.
    Recorded,
    Head,
}

impl CommitFrom {
    /// How a kept result says it, after its commit ("", for HEAD and --commit, which the
    /// user chose).
    pub fn said(self) -> &'static str {
        match self {
            CommitFrom::Manifest => " (the manifest's)",
            CommitFrom::Recorded => " (as the file records it)",
            CommitFrom::Given | CommitFrom::Head => "",
        }
    }
}

/// A manifest's entries, `(commit, file)`, each file relative to the manifest's directory.
/// A line is `COMMIT FILE` (spaces, a tab or a comma between); blank lines and lines
/// starting with `#` are passed over.
pub fn read_manifest(path: &Path) -> Result<Vec<(String, PathBuf)>, HistoryError> {
    let bad = |line: usize, why: String| HistoryError::BadManifest {
        path: path.to_path_buf(),
        line,
        why,
    };
    let text = std::fs::read_to_string(path).map_err(|e| bad(0, e.to_string()))?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let split = line.split_once(|c: char| c == ',' || c.is_whitespace());
        let Some((commit, file)) = split.map(|(c, f)| (c.trim(), f.trim())) else {
            return Err(bad(i + 1, format!("{line:?} is not COMMIT FILE")));
        };
        if commit.is_empty() || file.is_empty() {
            return Err(bad(i + 1, format!("{line:?} is not COMMIT FILE")));
        }
        entries.push((commit.to_string(), dir.join(file)));
    }
    if entries.is_empty() {
        return Err(bad(0, "no COMMIT FILE line in it".into()));
    }
    Ok(entries)
}

/// The files of one `history add`: those given, then a manifest's, each with the commit
/// its manifest line names.
pub fn files_to_add(
    given: &[PathBuf],
    manifest: Option<&Path>,
) -> Result<Vec<(PathBuf, Option<String>)>, HistoryError> {
    let mut files: Vec<(PathBuf, Option<String>)> =
        given.iter().map(|p| (p.clone(), None)).collect();
    if let Some(m) = manifest {
        let lines = read_manifest(m)?;
        files.extend(lines.into_iter().map(|(c, f)| (f, Some(c))));
    }
    Ok(files)
}

/// The commits of a backfill, each resolved in the repository at `dir` once.
pub struct Commits {
    dir: PathBuf,
    /// Whether `dir` is in a git repository (asked once).
    in_repository: bool,
    known: HashMap<String, Option<Commit>>,
}

impl Commits {
    pub fn new(dir: &Path) -> Commits {
        Commits {
            dir: dir.to_path_buf(),
            in_repository: git::top_level(dir).is_some(),
            known: HashMap::new(),
        }
    }

    /// The commit a result is kept at: `asked` (a manifest's, or `--commit`, as `from`
    /// says; one git does not know is refused), else the file's `recorded` one (kept as
    /// the file says when git does not know it: the file is the only witness), else HEAD.
    pub fn of(
        &mut self,
        asked: Option<(&str, CommitFrom)>,
        recorded: Option<&RecordedCommit>,
    ) -> Result<(Option<Commit>, CommitFrom), HistoryError> {
        if let Some((rev, from)) = asked {
            return Ok((self.resolve(Some(rev))?, from));
        }
        let Some(r) = recorded else {
            return Ok((self.resolve(None)?, CommitFrom::Head));
        };
        let known = match self.in_repository {
            true => self.resolve(Some(&r.sha)),
            false => Ok(None),
        };
        let commit = match known {
            Ok(Some(c)) => c,
            // Outside a repository (or a commit this clone lacks): the file's own word.
            Ok(None) | Err(HistoryError::NoSuchCommit(_)) => Commit {
                sha: r.sha.clone(),
                time: r.time.unwrap_or_else(plumb_model::quantity::Timestamp::now),
                branch: None,
                dirty: false,
            },
            Err(e) => return Err(e),
        };
        Ok((Some(commit), CommitFrom::Recorded))
    }

    /// The commit of each result: its manifest line's, else `given` (`--commit`), else
    /// what `of` finds; all found before any is kept.
    pub fn of_each<'a>(
        &mut self,
        results: impl Iterator<Item = (Option<&'a str>, &'a plumb_model::ResultDocument)>,
        given: Option<&str>,
    ) -> Result<Vec<(Option<Commit>, CommitFrom)>, HistoryError> {
        results
            .map(|(line, doc)| {
                let asked = match line {
                    Some(c) => Some((c, CommitFrom::Manifest)),
                    None => given.map(|c| (c, CommitFrom::Given)),
                };
                self.of(asked, doc.commit.as_ref())
            })
            .collect()
    }

    fn resolve(&mut self, rev: Option<&str>) -> Result<Option<Commit>, HistoryError> {
        let key = rev.unwrap_or("").to_string();
        if let Some(c) = self.known.get(&key) {
            return Ok(c.clone());
        }
        let c = git::commit(&self.dir, rev)?;
        self.known.insert(key, c.clone());
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_is_commit_and_file_per_line_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let m = dir.path().join("m.txt");
        std::fs::write(&m, "# backfill\n\nabc123 r1.json\ndef456,sub/r2.json\n").unwrap();
        let entries = read_manifest(&m).unwrap();
        assert_eq!(
            entries,
            [
                ("abc123".to_string(), dir.path().join("r1.json")),
                ("def456".to_string(), dir.path().join("sub/r2.json")),
            ]
        );
        std::fs::write(&m, "abc123 r1.json\nlonely\n").unwrap();
        let e = read_manifest(&m).unwrap_err().to_string();
        assert!(
            e.ends_with("m.txt line 2: \"lonely\" is not COMMIT FILE"),
            "{e}"
        );
        std::fs::write(&m, "# nothing\n").unwrap();
        let e = read_manifest(&m).unwrap_err().to_string();
        assert!(e.ends_with("m.txt: no COMMIT FILE line in it"), "{e}");
    }

    #[test]
    fn outside_a_repository_a_recorded_commit_keeps_its_own_time() {
        let dir = tempfile::tempdir().unwrap();
        let mut commits = Commits::new(dir.path());
        let time = plumb_model::quantity::Timestamp::from_unix_nanos(1_700_000_000_000_000_000);
        let recorded = RecordedCommit::of("7c51057a5b306c47", Some(time)).unwrap();
        let (c, from) = commits.of(None, Some(&recorded)).unwrap();
        let c = c.unwrap();
        assert_eq!(
            (c.sha.as_str(), c.time, from),
            ("7c51057a5b306c47", time, CommitFrom::Recorded)
        );
        let (c, from) = commits
            .of(Some(("abc", CommitFrom::Manifest)), None)
            .unwrap();
        assert_eq!(
            (c.unwrap().sha.as_str(), from),
            ("abc", CommitFrom::Manifest)
        );
        assert_eq!(commits.of(None, None).unwrap(), (None, CommitFrom::Head));
    }
}
