//! git, asked as a program with arguments (never through a shell): where the repository
//! is, what a revision names (commit and tree), whether the working tree has changes, the
//! commits between two revisions, and worktrees added and removed; through plumb-git,
//! whose one rule for the environment every call follows.
use crate::RevsError;
pub(crate) use plumb_git::GitFailed;
use plumb_git::{git, git_untrimmed, git_with};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A git repository, by the top of its working tree.
#[derive(Debug, Clone)]
pub struct Repo {
    pub top: PathBuf,
}

/// A revision as named and what it resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub name: String,
    /// The full commit id; `None` for the working tree.
    pub commit: Option<String>,
    pub tree: String,
}

impl Resolved {
    /// The commit's first 10 characters, or `working tree`.
    pub fn short(&self) -> &str {
        self.commit
            .as_deref()
            .map_or("working tree", |c| &c[..c.len().min(10)])
    }

    /// As people say it: `main (3f2a1c9d2e)`, the short sha alone when a sha was the name
    /// given, `working tree`.
    pub fn label(&self) -> String {
        match &self.commit {
            None => "working tree".to_string(),
            Some(c)
                if self.name.len() >= 4
                    && self.name.bytes().all(|b| b.is_ascii_hexdigit())
                    && c.starts_with(&self.name) =>
            {
                self.short().to_string()
            }
            Some(_) => format!("{} ({})", self.name, self.short()),
        }
    }
}

impl Repo {
    /// The repository `dir` stands in.
    pub fn discover(dir: &Path) -> Result<Repo, RevsError> {
        if let Err(e) = Command::new("git").arg("--version").output() {
            return Err(RevsError::NoGit(e.to_string()));
        }
        match git(dir, &["rev-parse", "--show-toplevel"]) {
            Ok(top) if !top.is_empty() => Ok(Repo { top: top.into() }),
            _ => Err(RevsError::NotARepository(dir.display().to_string())),
        }
    }

    /// The commit and tree `name` names. A name git would read as an option is refused.
    pub fn resolve(&self, name: &str) -> Result<Resolved, RevsError> {
        if name.starts_with('-') {
            return Err(RevsError::OptionLikeRevision(name.to_string()));
        }
        let commit = git(
            &self.top,
            &[
                "rev-parse",
                "--verify",
                "--end-of-options",
                &format!("{name}^{{commit}}"),
            ],
        )
        .map_err(|why| RevsError::NoSuchRevision {
            name: name.to_string(),
            why: match why.to_string() {
                said if said.contains("Needed a single revision") => {
                    "git knows no commit by that name".into()
                }
                said => said,
            },
        })?;
        let tree = self.tree_of(&commit)?;
        Ok(Resolved {
            name: name.to_string(),
            commit: Some(commit),
            tree,
        })
    }

    fn tree_of(&self, commit: &str) -> Result<String, RevsError> {
        git(&self.top, &["rev-parse", &format!("{commit}^{{tree}}")]).map_err(|why| {
            RevsError::Git {
                what: format!("reading the tree of {commit}"),
                why: why.to_string(),
            }
        })
    }

    /// Tracked files with uncommitted changes (untracked files are not changes: a build
    /// leaves them).
    pub fn dirty_files(&self) -> Result<Vec<String>, RevsError> {
        let out = git_untrimmed(
            &self.top,
            &["status", "--porcelain=v1", "--untracked-files=no"],
            &[],
        )
        .map_err(|why| RevsError::Git {
            what: "git status".into(),
            why: why.to_string(),
        })?;
        Ok(out
            .lines()
            .filter_map(|l| l.get(3..))
            .map(str::to_string)
            .collect())
    }

    /// The working tree as it is, named by the tree a commit of it would have (tracked
    /// files only), written through a scratch index: the repository's own index, its
    /// branches and its stash are left alone, and no identity is needed.
    pub fn working_tree(&self) -> Result<Resolved, RevsError> {
        let fail = |why: &dyn std::fmt::Display| RevsError::Git {
            what: "taking a snapshot of the working tree".into(),
            why: why.to_string(),
        };
        let scratch = tempfile::tempdir().map_err(|e| fail(&e))?;
        let index = scratch.path().join("index");
        let env = [("GIT_INDEX_FILE", index.as_path())];
        git_with(&self.top, &["read-tree", "HEAD"], &env).map_err(|e| fail(&e))?;
        git_with(&self.top, &["add", "--update", "--", "."], &env).map_err(|e| fail(&e))?;
        let tree = git_with(&self.top, &["write-tree"], &env).map_err(|e| fail(&e))?;
        Ok(Resolved {
            name: "working tree".into(),
            commit: None,
            tree,
        })
    }

    /// The commits after `from` up to and including `to`, oldest first, along first
    /// parents (a merge is one step, as the branch saw it).
    pub fn first_parent_range(&self, from: &str, to: &str) -> Result<Vec<String>, RevsError> {
        let out = git(
            &self.top,
            &[
                "rev-list",
                "--first-parent",
                "--reverse",
                "--end-of-options",
                &format!("{from}..{to}"),
            ],
        )
        .map_err(|why| RevsError::Git {
            what: format!("listing the commits from {from} to {to}"),
            why: why.to_string(),
        })?;
        Ok(out.lines().map(str::to_string).collect())
    }

    /// The text of `path` in `rev`'s committed tree, if it has that file.
    pub fn committed_file(&self, rev: &str, path: &str) -> Option<String> {
        git_untrimmed(&self.top, &["show", &format!("{rev}:{path}")], &[]).ok()
    }

    /// Whether `old` is an ancestor of `new` (or the same commit).
    pub fn is_ancestor(&self, old: &str, new: &str) -> bool {
        git(&self.top, &["merge-base", "--is-ancestor", old, new]).is_ok()
    }

    /// Adds a detached worktree of `commit` at `path`.
    pub(crate) fn add_worktree(&self, path: &Path, commit: &str) -> Result<(), GitFailed> {
        let p = path.to_string_lossy();
        git(
            &self.top,
            &["worktree", "add", "--detach", "--force", &p, commit],
        )
        .map(drop)
    }

    /// Removes the worktree at `path` (what a failed add left), forgetting it in git.
    pub(crate) fn remove_worktree(&self, path: &Path) {
        let p = path.to_string_lossy();
        let _ = git(&self.top, &["worktree", "remove", "--force", "--force", &p]);
        let _ = std::fs::remove_dir_all(path);
        let _ = git(&self.top, &["worktree", "prune"]);
    }

    /// The commit checked out in the worktree at `path`, if `path` is the top of a
    /// worktree of its own — never a directory inside another (git would walk up to the
    /// repository around it, and a checkout there would be the user's own tree).
    pub(crate) fn head_of(path: &Path) -> Option<String> {
        if !path.join(".git").is_file() {
            return None;
        }
        let top = git(path, &["rev-parse", "--show-toplevel"]).ok()?;
        let same = Path::new(&top).canonicalize().ok()? == path.canonicalize().ok()?;
        same.then(|| git(path, &["rev-parse", "HEAD"]).ok())?
    }

    /// Moves the worktree at `path` to `commit`, its tracked files as committed (edits
    /// made in it since are undone; untracked build outputs stay).
    pub(crate) fn switch(path: &Path, commit: &str) -> Result<(), GitFailed> {
        git(
            path,
            &["checkout", "--quiet", "--force", "--detach", commit],
        )
        .map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A repository with two commits: `a` then `b`.
    fn repo() -> (tempfile::TempDir, Repo) {
        crate::test_repo::repo(
            "git init -q -b main . && echo 1 > f && git add f && git commit -qm a && git tag a \
             && echo 2 > f && git commit -qam b && git tag b",
        )
    }

    #[test]
    fn resolves_names_to_commits_and_trees_and_refuses_option_like_names() {
        let (_d, r) = repo();
        let a = r.resolve("a").unwrap();
        let b = r.resolve("HEAD").unwrap();
        assert_ne!(a.tree, b.tree);
        assert_eq!(a.commit.as_ref().unwrap().len(), 40);
        assert_eq!(
            r.resolve("b~1").unwrap(),
            Resolved {
                name: "b~1".into(),
                ..a.clone()
            }
        );
        let e = r.resolve("no-such").unwrap_err().to_string();
        assert!(e.contains("no revision \"no-such\""), "{e}");
        assert!(matches!(
            r.resolve("--output=x"),
            Err(RevsError::OptionLikeRevision(_))
        ));
        assert_eq!(r.first_parent_range("a", "b").unwrap(), [b.commit.unwrap()]);
    }

    #[test]
    fn a_changed_tracked_file_is_dirty_and_its_snapshot_is_another_tree() {
        let (d, r) = repo();
        assert!(r.dirty_files().unwrap().is_empty());
        assert_eq!(
            r.working_tree().unwrap().tree,
            r.resolve("HEAD").unwrap().tree
        );
        std::fs::write(d.path().join("untracked"), "x").unwrap();
        assert!(
            r.dirty_files().unwrap().is_empty(),
            "untracked files are not changes"
        );
        std::fs::write(d.path().join("f"), "3").unwrap();
        assert_eq!(r.dirty_files().unwrap(), ["f"]);
        assert_ne!(
            r.working_tree().unwrap().tree,
            r.resolve("HEAD").unwrap().tree
        );
    }

    /// Text that reads as an option (from a shared store, say) stays a revision: git
    /// refuses it and writes nothing.
    #[test]
    fn a_range_that_looks_like_an_option_writes_nothing() {
        let (d, r) = repo();
        let target = d.path().join("written");
        let from = format!("--output={}", target.display());
        assert!(r.first_parent_range(&from, "HEAD").is_err());
        let written = std::fs::read_dir(d.path())
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("written"));
        assert!(!written, "git took the text for --output");
        assert!(r.is_ancestor("a", "b") && !r.is_ancestor("b", "a"));
    }

    #[test]
    fn outside_a_repository_is_said() {
        let d = tempfile::tempdir().unwrap();
        let e = Repo::discover(d.path()).unwrap_err();
        assert!(matches!(e, RevsError::NotARepository(_)), "{e}");
    }
}
