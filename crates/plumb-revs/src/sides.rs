//! The two sides `plumb revs` compares, resolved: B is HEAD unless named, and when B is
//! HEAD a working tree with uncommitted changes is refused, or with `allow_dirty` is B
//! itself; the build command given, else the one checked into plumb.toml.
use crate::{Repo, Resolved, RevsError};

impl Repo {
    /// A (`base`) and B (`new`, HEAD when absent) resolved; what becomes of a dirty tree
    /// said through `say`.
    pub fn sides(
        &self,
        base: &str,
        new: Option<&str>,
        allow_dirty: bool,
        say: &mut dyn FnMut(String),
    ) -> Result<(Resolved, Resolved), RevsError> {
        let base = self.resolve(base)?;
        let new = self.resolve(new.unwrap_or("HEAD"))?;
        let head = self.resolve("HEAD")?;
        if new.commit != head.commit {
            return Ok((base, new));
        }
        let dirty = self.dirty_files()?;
        if dirty.is_empty() {
            return Ok((base, new));
        }
        if !allow_dirty {
            return Err(RevsError::Dirty { files: dirty });
        }
        say(format!(
            "B is the working tree with its uncommitted changes ({} file{}), built and run in place (--allow-dirty)",
            dirty.len(),
            if dirty.len() == 1 { "" } else { "s" }
        ));
        Ok((base, self.working_tree()?))
    }

    /// The build: `given`, else the one checked into plumb.toml (HEAD's), said.
    pub fn build_command(
        &self,
        given: Option<&str>,
        say: &mut dyn FnMut(String),
    ) -> Result<Option<String>, RevsError> {
        if let Some(b) = given {
            return Ok(Some(b.to_string()));
        }
        let from_config = self.config()?.revs.build;
        if let Some(b) = &from_config {
            say(format!("building with plumb.toml's [revs] build: {b:?}"));
        }
        Ok(from_config)
    }
}
