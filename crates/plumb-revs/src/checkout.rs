//! A revision's worktree under `.plumb/revs/<key>/wt`, where the key is a hash of its tree
//! and the build command: two commits with the same tree share it, a finished build in it
//! is reused, and every entry's path has the same length (the environment's size alone
//! can move a timing: Mytkowicz et al., ASPLOS 2009). Nothing is created outside the
//! repository's own `.plumb/`.
use crate::git::{Repo, Resolved};
use crate::RevsError;
use std::path::{Path, PathBuf};

/// Where worktrees are kept, from the top of the repository.
pub const CACHE_DIR: &str = ".plumb/revs";

/// Bumped when what a key covers changes, so old entries are not taken for new ones.
const KEY_VERSION: &str = "plumb-revs 1";

/// A revision checked out and ready to build.
#[derive(Debug, Clone)]
pub struct Checkout {
    /// Where it is built and run: the worktree, or the repository itself for the
    /// working tree.
    pub dir: PathBuf,
    /// Its cache entry: the build log and the marker of a finished build live here.
    pub entry: PathBuf,
    /// The entry's name: 16 hex digits of the tree and build command's hash.
    pub key: String,
    /// A build with this key finished here before (its marker was found).
    pub built: bool,
}

impl Checkout {
    /// The log of its last build.
    pub fn build_log(&self) -> PathBuf {
        self.entry.join("build.log")
    }

    pub(crate) fn marker(&self) -> PathBuf {
        self.entry.join("built")
    }
}

/// FNV-1a, 64 bits, of the parts each ended by a NUL: a cache key, not a defence (the
/// inputs are the user's own).
fn key_of(tree: &str, build: Option<&str>) -> String {
    use std::hash::Hasher;
    let mut h = fnv::FnvHasher::default();
    for part in [KEY_VERSION, tree, build.unwrap_or("")] {
        h.write(part.as_bytes());
        h.write(&[0]);
    }
    format!("{:016x}", h.finish())
}

/// Free space below which a failed checkout is put down to a full disk.
const LOW_SPACE: u64 = 16 << 20;

/// The bytes an unprivileged writer may still use on the filesystem holding `path`.
fn free_bytes(path: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    let mut st = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: a NUL-terminated path and a buffer statvfs fills on success.
    let ok = unsafe { libc::statvfs(c.as_ptr(), st.as_mut_ptr()) } == 0;
    // SAFETY: statvfs returned 0, so it filled the struct.
    ok.then(|| unsafe { st.assume_init() })
        .map(|st| st.f_bavail * st.f_frsize)
}

/// `.plumb/revs/` made, with a `.gitignore` in `.plumb/` so git status and a dirty check
/// never see plumb's own files.
fn cache_root(repo: &Repo) -> Result<PathBuf, RevsError> {
    // A `.plumb` or `.plumb/revs` committed as a symlink would put worktrees (and what is
    // removed to remake them) outside the repository.
    for dir in [repo.top.join(".plumb"), repo.top.join(CACHE_DIR)] {
        if std::fs::symlink_metadata(&dir).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(RevsError::Cache {
                path: dir.display().to_string(),
                why: "is a symbolic link: plumb keeps its worktrees only inside the repository"
                    .into(),
            });
        }
    }
    let root = repo.top.join(CACHE_DIR);
    std::fs::create_dir_all(&root).map_err(|e| RevsError::io(&root, e))?;
    let ignore = repo.top.join(".plumb").join(".gitignore");
    if !ignore.exists() {
        std::fs::write(&ignore, "*\n").map_err(|e| RevsError::io(&ignore, e))?;
    }
    Ok(root)
}

/// The worktree of `rev` with `build`, made or reused. For the working tree (no commit)
/// the repository itself is the directory and it is always built again.
pub fn checkout(repo: &Repo, rev: &Resolved, build: Option<&str>) -> Result<Checkout, RevsError> {
    let root = cache_root(repo)?;
    let Some(commit) = rev.commit.as_deref() else {
        let entry = root.join("working-tree");
        std::fs::create_dir_all(&entry).map_err(|e| RevsError::io(&entry, e))?;
        return Ok(Checkout {
            dir: repo.top.clone(),
            entry,
            key: "working-tree".into(),
            built: false,
        });
    };
    let key = key_of(&rev.tree, build);
    let entry = root.join(&key);
    let wt = entry.join("wt");
    std::fs::create_dir_all(&entry).map_err(|e| RevsError::io(&entry, e))?;
    let reusable = Repo::head_of(&wt).is_some() && Repo::switch(&wt, commit).is_ok();
    if !reusable {
        // Whatever is there (an interrupted add, a deleted worktree git still lists) goes.
        repo.remove_worktree(&wt);
        if let Err(why) = repo.add_worktree(&wt, commit) {
            // git says which file it could not write, not why: a full disk is said here.
            let why = match free_bytes(&entry) {
                Some(free) if free < LOW_SPACE => format!(
                    "{why} (the disk is full: {} free on its filesystem)",
                    plumb_model::format::bytes(plumb_model::quantity::ByteSize(free))
                ),
                _ => why.to_string(),
            };
            repo.remove_worktree(&wt);
            return Err(RevsError::Git {
                what: format!("creating the worktree of {} at {}", rev.name, wt.display()),
                why,
            });
        }
    }
    let c = Checkout {
        dir: wt,
        entry,
        key,
        built: false,
    };
    let built = std::fs::read_to_string(c.marker()).is_ok_and(|k| k.trim() == c.key);
    Ok(Checkout { built, ..c })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// Commits a, b, and HEAD reverting b (a's tree again).
    fn repo() -> (tempfile::TempDir, Repo) {
        crate::test_repo::repo(
            "git init -q -b main . && echo 1 > f && git add f && git commit -qm a && git tag a \
             && echo 2 > f && git commit -qam b && git revert --no-edit HEAD >/dev/null",
        )
    }

    /// The key is the tree and the build command: HEAD reverts b, so it shares a's tree
    /// and its worktree; another build command is another entry; the paths are of one
    /// length, inside the repository, and git status stays clean.
    #[test]
    fn worktrees_are_keyed_by_tree_and_build_and_reused() {
        let (_d, r) = repo();
        let a = r.resolve("a").unwrap();
        let b = r.resolve("HEAD~1").unwrap();
        let head = r.resolve("HEAD").unwrap();
        let ca = checkout(&r, &a, Some("make")).unwrap();
        assert!(ca.dir.starts_with(r.top.join(".plumb/revs")));
        assert_eq!(std::fs::read_to_string(ca.dir.join("f")).unwrap(), "1\n");
        assert!(!ca.built);
        std::fs::write(ca.marker(), &ca.key).unwrap();
        std::fs::write(ca.dir.join("f"), "edited").unwrap();
        let ch = checkout(&r, &head, Some("make")).unwrap();
        assert_eq!(ch.dir, ca.dir, "same tree, same worktree");
        assert!(ch.built, "the finished build is reused");
        assert_eq!(
            std::fs::read_to_string(ch.dir.join("f")).unwrap(),
            "1\n",
            "edits undone"
        );
        let cb = checkout(&r, &b, Some("make")).unwrap();
        let other = checkout(&r, &a, Some("make -j2")).unwrap();
        assert_ne!(cb.dir, ca.dir);
        assert_ne!(other.dir, ca.dir);
        assert_eq!(cb.dir.as_os_str().len(), ca.dir.as_os_str().len());
        assert!(r.dirty_files().unwrap().is_empty());
        let status = Command::new("git")
            .args(["status", "--porcelain"])
            .current_dir(&r.top)
            .output()
            .unwrap();
        assert!(
            status.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&status.stdout)
        );
    }

    /// An entry's directory that is not a worktree of its own (a half-removed one) is never
    /// taken for one: git would walk up to the repository around it, and a forced checkout
    /// there would wipe the user's uncommitted work.
    #[test]
    fn a_directory_that_is_not_a_worktree_is_made_again_and_the_repository_left_alone() {
        let (_d, r) = repo();
        std::fs::write(r.top.join("f"), "uncommitted\n").unwrap();
        let a = r.resolve("a").unwrap();
        let key = key_of(&a.tree, None);
        let wt = r.top.join(CACHE_DIR).join(&key).join("wt");
        std::fs::create_dir_all(&wt).unwrap();
        std::fs::write(wt.join("leftover"), "x").unwrap();
        let c = checkout(&r, &a, None).unwrap();
        assert_eq!(c.dir, wt);
        assert_eq!(std::fs::read_to_string(wt.join("f")).unwrap(), "1\n");
        assert_eq!(
            std::fs::read_to_string(r.top.join("f")).unwrap(),
            "uncommitted\n"
        );
        assert_eq!(r.dirty_files().unwrap(), ["f"]);
    }

    /// A worktree deleted behind git's back, or half made, is made again.
    #[test]
    fn a_deleted_worktree_is_made_again() {
        let (_d, r) = repo();
        let a = r.resolve("a").unwrap();
        let c = checkout(&r, &a, None).unwrap();
        std::fs::remove_dir_all(&c.dir).unwrap();
        let again = checkout(&r, &a, None).unwrap();
        assert_eq!(std::fs::read_to_string(again.dir.join("f")).unwrap(), "1\n");
    }
}
