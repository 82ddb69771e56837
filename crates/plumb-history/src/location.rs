//! Where a history lives: a SQLite file (a path) or a PostgreSQL database (a postgres://
//! URL), opened behind the one trait; said in messages without a password.
use crate::{HistoryError, HistoryStore, SqliteStore};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Location {
    /// A postgres:// or postgresql:// URL, else a SQLite file's path.
    pub fn parse(text: &str) -> Location {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Location::Postgres(text.to_string())
        } else {
            Location::Sqlite(PathBuf::from(text))
        }
    }

    /// The store named: `given` when not empty, else $PLUMB_HISTORY when set; None when
    /// neither names one.
    pub fn named(given: Option<&str>) -> Option<Location> {
        let env = std::env::var("PLUMB_HISTORY").ok();
        given
            .filter(|g| !g.is_empty())
            .or(env.as_deref().filter(|v| !v.is_empty()))
            .map(Location::parse)
    }

    /// The store named, else `.plumb/history.db` at the top of the git repository at `dir`
    /// (`dir` itself outside git).
    pub fn resolve(given: Option<&str>, dir: &Path) -> Location {
        Location::named(given).unwrap_or_else(|| Location::Sqlite(crate::git::default_store(dir)))
    }

    /// The store to keep results in: `given` (an empty path refused), else as `resolve`
    /// finds it.
    pub fn to_keep(given: Option<&str>, dir: &Path) -> Result<Location, HistoryError> {
        match given {
            Some("") => Err(HistoryError::EmptyPath),
            _ => Ok(Location::resolve(given, dir)),
        }
    }

    /// A store to read that must already exist: the one named (a missing file refused),
    /// else the default one under the git top level at `dir` when its file is there
    /// (None when not).
    pub fn existing(given: Option<&str>, dir: &Path) -> Result<Option<Location>, HistoryError> {
        let Some(named) = Location::named(given) else {
            let path = crate::git::default_store(dir);
            return Ok(path.exists().then_some(Location::Sqlite(path)));
        };
        match &named {
            Location::Sqlite(p) if !p.exists() => Err(HistoryError::NoSuchStore(p.clone())),
            _ => Ok(Some(named)),
        }
    }

    /// A store a reading command reads: as `existing` finds it, and there (a reading
    /// command never makes one).
    pub fn to_read(given: Option<&str>, dir: &Path) -> Result<Location, HistoryError> {
        Location::existing(given, dir)?
            .ok_or_else(|| HistoryError::NoHistory(crate::git::default_store(dir)))
    }

    /// The location as messages say it: a path, or a URL without its password.
    pub fn shown(&self) -> String {
        match self {
            Location::Sqlite(p) => p.display().to_string(),
            Location::Postgres(url) => crate::redacted(url),
        }
    }

    /// Opens the store, making a SQLite file's directory when it is missing.
    pub fn open(&self) -> Result<Box<dyn HistoryStore>, HistoryError> {
        match self {
            Location::Sqlite(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|e| HistoryError::Database {
                        what: "cannot make the store's directory",
                        cause: format!("{}: {e}", dir.display()),
                    })?;
                }
                Ok(Box::new(SqliteStore::open(path)?))
            }
            #[cfg(feature = "postgres")]
            Location::Postgres(url) => Ok(Box::new(crate::PostgresStore::open(url)?)),
            #[cfg(not(feature = "postgres"))]
            Location::Postgres(_) => Err(HistoryError::Database {
                what: "cannot open a PostgreSQL store",
                cause: "this plumb is built without PostgreSQL: build it with `--features postgres` (cargo install --locked --path crates/plumb-cli --features postgres), or keep the result file and add it later with `plumb history add`".into(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_postgres_and_anything_else_a_file() {
        let pg = Location::parse("postgresql://u:pw@db/h");
        assert_eq!(pg.shown(), "postgresql://u:***@db/h");
        assert_eq!(
            Location::parse(".plumb/history.db"),
            Location::Sqlite(".plumb/history.db".into())
        );
    }

    #[test]
    fn a_store_to_read_is_refused_when_named_and_missing() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.db");
        let named = Location::existing(missing.to_str(), dir.path());
        assert!(matches!(named, Err(HistoryError::NoSuchStore(p)) if p == missing));
        std::fs::write(&missing, "").unwrap();
        let found = Location::existing(missing.to_str(), dir.path()).unwrap();
        assert_eq!(found, Some(Location::Sqlite(missing)));
        let empty = Location::to_keep(Some(""), dir.path());
        assert!(matches!(empty, Err(HistoryError::EmptyPath)));
    }
}
