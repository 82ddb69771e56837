//! The embedded home of the history: one SQLite file (WAL, so readers never wait for a
//! writer), its schema migrated on open, every statement parameterised.
use crate::document::{compress, decompress, run_key};
use crate::error::db;
use crate::lock_holders::lock_holders;
use crate::points::points_of;
use crate::schema::{MIGRATIONS, VERSION};
use crate::statements as S;
use crate::{Added, ChangeStatus, Commit, HistoryError, HistoryStore, MachineFingerprint, Point};
use crate::{
    ChangeMethod, Confirmation, Found, SeriesKey, StoredChange, StoredPoint, StoredSeries,
};
use plumb_model::quantity::Timestamp;
use plumb_model::ResultDocument;
use rusqlite::{params, Connection, OpenFlags, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a write waits for another writer before it says the store is locked, and by
/// whom; `PLUMB_HISTORY_LOCK_WAIT` (seconds) changes it.
const BUSY_WAIT: Duration = Duration::from_secs(10);

pub struct SqliteStore {
    conn: Connection,
    path: PathBuf,
    wait: Duration,
    /// Why the store can only be read (a read-only disk, a file not ours), when it can.
    read_only: Option<String>,
}

/// `path` as a file: URI's path: `%`, `?` and `#` escaped.
fn uri_path(path: &Path) -> String {
    path.to_string_lossy()
        .replace('%', "%25")
        .replace('?', "%3f")
        .replace('#', "%23")
}

fn cannot_write(cause: String) -> HistoryError {
    HistoryError::Database {
        what: "cannot write the store",
        cause,
    }
}

fn damaged(cause: String) -> HistoryError {
    HistoryError::Database {
        what: "the store is damaged (restore it from a copy, or name another with --history)",
        cause,
    }
}

/// The lock wait: `PLUMB_HISTORY_LOCK_WAIT` seconds, else `BUSY_WAIT`.
pub(crate) fn lock_wait() -> Duration {
    std::env::var("PLUMB_HISTORY_LOCK_WAIT")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map_or(BUSY_WAIT, Duration::from_secs_f64)
}

impl SqliteStore {
    /// Opens (creating if missing) the store at `path` and brings its schema to this
    /// plumb's version; a newer schema is refused.
    pub fn open(path: &Path) -> Result<SqliteStore, HistoryError> {
        let wait = lock_wait();
        let with_holders = |e| locked_by(e, path, wait);
        if path.is_dir() {
            return Err(HistoryError::Database {
                what: "not a store",
                cause: format!(
                    "{} is a directory (a store is a file, e.g. {}/history.db)",
                    path.display(),
                    path.display()
                ),
            });
        }
        if !path.exists() {
            make_new(path, wait)?;
        }
        // SQLite says "unable to open database file" of a read-only disk or a file it may
        // not write; the system's own words are clearer. A store that can be read but not
        // written is opened to read (and says why at the first write); one that cannot be
        // made is refused here. (An empty new file is a new store.)
        let mut read_only_disk = false;
        let read_only = match std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
        {
            Ok(_) => None,
            Err(e) if path.exists() => {
                read_only_disk = e.kind() == std::io::ErrorKind::ReadOnlyFilesystem;
                Some(e.to_string())
            }
            Err(e) => return Err(cannot_write(e.to_string())),
        };
        let conn = match read_only {
            None => Connection::open(path),
            // Immutable on a read-only disk only: it cannot hold the -shm file a WAL reader
            // needs, and nothing can change the store there. A file that is only not ours
            // may be written by its owner meanwhile: read it as a reader, locks and all.
            Some(_) if read_only_disk => Connection::open_with_flags(
                format!("file:{}?immutable=1", uri_path(path)),
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
            ),
            Some(_) => open_not_ours(path),
        }
        .map_err(db("cannot open the store"))
        .map_err(with_holders)?;
        conn.busy_timeout(wait)
            .map_err(db("cannot set the lock wait"))?;
        if read_only.is_none() {
            conn.pragma_update(None, "journal_mode", "WAL")
                .map_err(db("cannot turn on write-ahead logging"))
                .map_err(with_holders)?;
            // In WAL mode NORMAL syncs at checkpoints, not at every commit: a crashed or
            // killed plumb loses nothing committed, and only a power cut can take the last
            // commits back (never corrupting the store), while an analysis's hundreds of
            // small writes do not wait for the disk hundreds of times.
            conn.pragma_update(None, "synchronous", "NORMAL")
                .map_err(db("cannot set how writes are synced"))?;
        }
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(db("cannot turn on foreign keys"))?;
        let mut store = SqliteStore {
            conn,
            path: path.to_path_buf(),
            wait,
            read_only,
        };
        store.migrate().map_err(with_holders)?;
        Ok(store)
    }

    /// `e`, a lock not had in time said with the wait and who holds the lock.
    fn said(&self, e: HistoryError) -> HistoryError {
        locked_by(e, &self.path, self.wait)
    }

    /// Brings the schema to this plumb's version in one write transaction, the version
    /// read inside it: two plumbs opening a new store at once migrate it once.
    fn migrate(&mut self) -> Result<(), HistoryError> {
        let version = |c: &Connection| -> Result<u32, HistoryError> {
            c.pragma_query_value(None, "user_version", |r| r.get(0))
                .map_err(db("cannot read the schema version"))
        };
        let found = version(&self.conn)?;
        if found > VERSION {
            return Err(HistoryError::NewerSchema {
                found,
                known: VERSION,
            });
        }
        if found == VERSION {
            return Ok(());
        }
        self.writable()?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db("cannot start a migration"))?;
        let found = version(&tx)?;
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
            tx.execute_batch(sql)
                .map_err(db("cannot migrate the schema"))?;
            tx.pragma_update(None, "user_version", i as u32 + 1)
                .map_err(db("cannot record the schema version"))?;
        }
        tx.commit().map_err(db("cannot commit a migration"))?;
        Ok(())
    }
}

/// A store that is not ours to write: read as a reader, locks and all, when its WAL index
/// (`-shm`) can be made or is there; else (a directory we may not write, as a store
/// shared read-only is) as it is on disk, immutable: a reader there could not open it.
fn open_not_ours(path: &Path) -> rusqlite::Result<Connection> {
    let reader = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    match reader.pragma_query_value(None, "user_version", |r| r.get::<_, u32>(0)) {
        Ok(_) => Ok(reader),
        Err(_) => Connection::open_with_flags(
            format!("file:{}?immutable=1", uri_path(path)),
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
        ),
    }
}

/// A new store made whole where no other process can see it (WAL on, every migration
/// applied), then linked into place: two plumbs making one store at once do not fight
/// over its first locks (switching a new file to WAL takes an exclusive lock that SQLite
/// may refuse at once, without waiting). The one that links second opens the first's.
fn make_new(path: &Path, wait: Duration) -> Result<(), HistoryError> {
    let name = path
        .file_name()
        .map_or("store".into(), |n| n.to_string_lossy());
    let private = path.with_file_name(format!(".{name}.new-{}", std::process::id()));
    // Made by the system first: its own words if the directory cannot be written.
    std::fs::File::create(&private).map_err(|e| cannot_write(e.to_string()))?;
    let made = (|| {
        let conn = Connection::open(&private).map_err(db("cannot make the store"))?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(db("cannot turn on write-ahead logging"))?;
        let path = private.clone();
        SqliteStore {
            conn,
            path,
            wait,
            read_only: None,
        }
        .migrate()
    })();
    let placed = made.and_then(|()| match std::fs::hard_link(&private, path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        // A file system without hard links: moved, unless another plumb was first.
        Err(_) if !path.exists() => {
            std::fs::rename(&private, path).map_err(|e| cannot_write(e.to_string()))
        }
        Err(_) => Ok(()),
    });
    let _ = std::fs::remove_file(&private);
    placed
}

impl HistoryStore for SqliteStore {
    fn writable(&self) -> Result<(), HistoryError> {
        match &self.read_only {
            None => Ok(()),
            Some(why) => Err(cannot_write(why.clone())),
        }
    }

    /// SQLite's `quick_check`: every page read once.
    fn sound(&self) -> Result<(), HistoryError> {
        let check = (self.conn).query_row("PRAGMA quick_check(1)", [], |r| r.get::<_, String>(0));
        match check {
            Ok(ok) if ok == "ok" => Ok(()),
            Ok(problem) => Err(damaged(problem)),
            Err(e) => Err(damaged(e.to_string())),
        }
    }

    fn add(
        &mut self,
        doc: &ResultDocument,
        commit: Option<&Commit>,
    ) -> Result<Added, HistoryError> {
        self.writable()?;
        self.add_run(doc, commit).map_err(|e| self.said(e))
    }

    fn record_changes(
        &mut self,
        series: i64,
        method: ChangeMethod,
        found: &[(i64, Found)],
        now: Timestamp,
    ) -> Result<Vec<StoredChange>, HistoryError> {
        if self.read_only.is_some() {
            // Nothing can be recorded: what the record says, nothing new.
            let before = self.changes(series, method)?;
            return Ok(StoredChange::as_recorded(
                series, method, found, &before, now,
            ));
        }
        self.record(series, method, found, now)
            .map_err(|e| self.said(e))
    }

    fn keep_confirmation(&mut self, c: &Confirmation) -> Result<i64, HistoryError> {
        self.writable()?;
        let json = c.document.to_json();
        self.conn
            .query_row(
                S::KEEP_CONFIRMATION,
                params![
                    c.series,
                    c.run,
                    c.recorded.to_string(),
                    c.base_sha,
                    c.new_sha,
                    c.verdict,
                    c.culprit,
                    compress(&json)
                ],
                |r| r.get(0),
            )
            .map_err(db("cannot keep a confirmation"))
            .map_err(|e| self.said(e))
    }

    fn confirmations(&mut self, series: i64, run: i64) -> Result<Vec<Confirmation>, HistoryError> {
        let mut stmt = self
            .conn
            .prepare(S::CONFIRMATIONS)
            .map_err(db("cannot read the confirmations"))?;
        let rows = stmt
            .query_map(params![series, run], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, Vec<u8>>(5)?,
                ))
            })
            .map_err(db("cannot read the confirmations"))?;
        let mut out = Vec::new();
        for row in rows {
            let (recorded, base_sha, new_sha, verdict, culprit, bytes) =
                row.map_err(db("cannot read the confirmations"))?;
            out.push(crate::store::confirmation_from(
                (series, run),
                (&recorded, base_sha, new_sha, verdict, culprit),
                &bytes,
            )?);
        }
        Ok(out)
    }

    fn set_status(
        &mut self,
        series: i64,
        run: i64,
        status: ChangeStatus,
        note: Option<&str>,
    ) -> Result<(), HistoryError> {
        self.writable()?;
        self.status(series, run, status, note)
            .map_err(|e| self.said(e))
    }

    fn changes(
        &mut self,
        series: i64,
        method: ChangeMethod,
    ) -> Result<Vec<StoredChange>, HistoryError> {
        let newest: i64 = self
            .conn
            .query_row(S::NEWEST_RUN, [], |r| r.get(0))
            .map_err(db("cannot read the newest run"))?;
        read_changes(&self.conn, (series, method), newest)
    }

    fn analysis(&mut self, series: i64) -> Result<Option<String>, HistoryError> {
        use rusqlite::OptionalExtension;
        self.conn
            .query_row(S::ANALYSIS, params![series], |r| r.get(0))
            .optional()
            .map_err(db("cannot read an analysis"))
    }

    fn save_analysis(&mut self, series: i64, state: &str) -> Result<(), HistoryError> {
        if self.read_only.is_some() {
            return Ok(()); // a cache: a read-only store analyses from scratch each time
        }
        self.conn
            .execute(S::SAVE_ANALYSIS, params![series, state])
            .map_err(db("cannot keep an analysis"))
            .map_err(|e| self.said(e))?;
        Ok(())
    }

    fn document(&mut self, run: i64) -> Result<ResultDocument, HistoryError> {
        let bytes: Vec<u8> = self
            .conn
            .query_row(S::DOCUMENT, params![run], |r| r.get(0))
            .map_err(db("cannot read a kept result"))?;
        let json = decompress(&bytes)?;
        ResultDocument::from_json(&json).map_err(|e| HistoryError::Document(e.to_string()))
    }

    fn series(&mut self) -> Result<Vec<StoredSeries>, HistoryError> {
        let mut stmt = self
            .conn
            .prepare(S::SERIES)
            .map_err(db("cannot list the series"))?;
        let rows = stmt
            .query_map([], |r| {
                let parameters: String = r.get(2)?;
                Ok(StoredSeries {
                    id: r.get(0)?,
                    key: SeriesKey {
                        benchmark: r.get(1)?,
                        parameters: serde_json::from_str(&parameters).unwrap_or_default(),
                        metric: r.get(3)?,
                        machine: MachineFingerprint(r.get(4)?),
                    },
                    points: r.get::<_, i64>(5)? as u64,
                })
            })
            .map_err(db("cannot list the series"))?;
        rows.collect::<Result<_, _>>()
            .map_err(db("cannot read a series"))
    }

    fn points(&mut self, series: i64) -> Result<Vec<StoredPoint>, HistoryError> {
        let mut stmt = self
            .conn
            .prepare(S::POINTS)
            .map_err(db("cannot read the points"))?;
        let moment = |s: String| s.parse::<Timestamp>().unwrap_or(Timestamp::EPOCH);
        let rows = stmt
            .query_map(params![series], |r| {
                let sha: Option<String> = r.get(2)?;
                let commit_time: Option<String> = r.get(3)?;
                let commit = match sha {
                    Some(sha) => Some(Commit {
                        sha,
                        time: commit_time.map_or(Timestamp::EPOCH, moment),
                        branch: r.get(4)?,
                        dirty: r.get(5)?,
                    }),
                    None => None,
                };
                let (lo, hi): (Option<f64>, Option<f64>) = (r.get(10)?, r.get(11)?);
                Ok(StoredPoint {
                    run: r.get(0)?,
                    recorded: moment(r.get(1)?),
                    commit,
                    plumb_version: r.get(6)?,
                    point: Point {
                        n: r.get::<_, i64>(7)? as u64,
                        mean: r.get(8)?,
                        median: r.get(9)?,
                        interval: crate::series::interval_read(lo, hi),
                        stderr: r.get(13)?,
                        unit: unit_of(&r.get::<_, String>(12)?),
                    },
                })
            })
            .map_err(db("cannot read the points"))?;
        rows.collect::<Result<_, _>>()
            .map_err(db("cannot read a point"))
    }
}

impl SqliteStore {
    /// `add`: the run, its machine, its series and points, in one transaction.
    fn add_run(
        &mut self,
        doc: &ResultDocument,
        commit: Option<&Commit>,
    ) -> Result<Added, HistoryError> {
        let machine = MachineFingerprint::of(doc);
        let json = doc.to_json();
        let id = run_key(&json, commit);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db("cannot start a write"))?;
        tx.execute(S::ADD_MACHINE, params![machine.0])
            .map_err(db("cannot record the machine"))?;
        let machine_id: i64 = tx
            .query_row(S::MACHINE_ID, params![machine.0], |r| r.get(0))
            .map_err(db("cannot read the machine"))?;
        use rusqlite::OptionalExtension;
        let inserted: Option<i64> = tx
            .query_row(
                S::ADD_RUN,
                params![
                    doc.started.to_string(),
                    machine_id,
                    commit.map(|c| c.sha.clone()),
                    commit.map(|c| c.time.to_string()),
                    commit.and_then(|c| c.branch.clone()),
                    commit.is_some_and(|c| c.dirty),
                    doc.tool.version,
                    id,
                    compress(&json),
                ],
                |r| r.get(0),
            )
            .optional()
            .map_err(db("cannot record the run"))?;
        let Some(run) = inserted else {
            let run = tx
                .query_row(S::RUN_BY_DIGEST, params![id], |r| r.get(0))
                .map_err(db("cannot read the run kept before"))?;
            return Ok(Added { run, new: false });
        };
        insert_points(&tx, doc, &machine, machine_id, run)?;
        tx.commit().map_err(db("cannot commit the run"))?;
        Ok(Added { run, new: true })
    }

    /// `record_changes`, in one transaction.
    fn record(
        &mut self,
        series: i64,
        method: ChangeMethod,
        found: &[(i64, Found)],
        now: Timestamp,
    ) -> Result<Vec<StoredChange>, HistoryError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db("cannot start a write"))?;
        let newest: i64 = tx
            .query_row(S::NEWEST_RUN, [], |r| r.get(0))
            .map_err(db("cannot read the newest run"))?;
        let runs: Vec<i64> = found.iter().map(|f| f.0).collect();
        // A change no longer found is forgotten while nobody has spoken of it.
        tx.execute(
            S::FORGET_CHANGES_SQLITE,
            params![
                series,
                serde_json::to_string(&runs).expect("ids serialise"),
                method.name()
            ],
        )
        .map_err(db("cannot forget a change"))?;
        for (run, f) in found {
            let (at, (bn, bm, blo, bhi), (an, am, alo, ahi), p) = f.columns();
            let now = now.to_string();
            tx.execute(
                S::RECORD_CHANGE,
                params![
                    series,
                    run,
                    now,
                    newest,
                    at,
                    bn,
                    bm,
                    blo,
                    bhi,
                    an,
                    am,
                    alo,
                    ahi,
                    p,
                    method.name()
                ],
            )
            .map_err(db("cannot record a change"))?;
        }
        let out = read_changes(&tx, (series, method), newest)?;
        tx.commit().map_err(db("cannot commit the changes"))?;
        Ok(out)
    }

    /// `set_status`.
    fn status(
        &mut self,
        series: i64,
        run: i64,
        status: ChangeStatus,
        note: Option<&str>,
    ) -> Result<(), HistoryError> {
        let changed = self
            .conn
            .execute(S::SET_STATUS, params![series, run, status.name(), note])
            .map_err(db("cannot set a change's status"))?;
        if changed == 0 {
            return Err(HistoryError::NoSuchChange { series, run });
        }
        Ok(())
    }
}

/// A point per benchmark and metric of `doc`, in the run's transaction, each series made
/// when it is new.
fn insert_points(
    tx: &rusqlite::Transaction,
    doc: &ResultDocument,
    machine: &MachineFingerprint,
    machine_id: i64,
    run: i64,
) -> Result<(), HistoryError> {
    for (key, p) in points_of(doc, machine) {
        let parameters = key.parameters_text();
        tx.execute(
            S::ADD_SERIES,
            params![key.benchmark, parameters, key.metric, machine_id],
        )
        .map_err(db("cannot record a series"))?;
        let series: i64 = tx
            .query_row(
                S::SERIES_ID,
                params![key.benchmark, parameters, key.metric, machine_id],
                |r| r.get(0),
            )
            .map_err(db("cannot read a series"))?;
        tx.execute(
            S::ADD_POINT,
            params![
                series,
                run,
                p.n as i64,
                p.mean,
                p.median,
                p.interval.map(|i| i.0),
                p.interval.map(|i| i.1),
                p.stderr,
                p.unit.as_str()
            ],
        )
        .map_err(db("cannot record a point"))?;
    }
    Ok(())
}

/// A stored unit's name read back (a name from a newer plumb read as a count: a plain
/// number, never a time or size it may not be).
pub(crate) fn unit_of(name: &str) -> plumb_model::Unit {
    plumb_model::Unit::parse(name).unwrap_or(plumb_model::Unit::Count)
}

/// `e`, with a lock's wait and holders when it is one.
fn locked_by(e: HistoryError, path: &Path, wait: Duration) -> HistoryError {
    match e {
        HistoryError::Locked { .. } => HistoryError::Locked {
            waited: wait,
            holders: lock_holders(path),
        },
        other => other,
    }
}

/// The changes recorded in `series`, each new when first seen while `newest` was the
/// newest run.
fn read_changes(
    conn: &Connection,
    (series, method): (i64, ChangeMethod),
    newest: i64,
) -> Result<Vec<StoredChange>, HistoryError> {
    let mut stmt = conn
        .prepare(S::CHANGES)
        .map_err(db("cannot read the changes"))?;
    let rows = stmt
        .query_map(params![series, method.name()], |r| {
            let run: i64 = r.get(0)?;
            let status: String = r.get(1)?;
            let seen: String = r.get(2)?;
            Ok(StoredChange {
                series,
                run,
                method,
                status: ChangeStatus::from_name(&status).unwrap_or(ChangeStatus::Candidate),
                first_seen: seen.parse().unwrap_or(Timestamp::EPOCH),
                note: r.get(3)?,
                new: r.get::<_, i64>(4)? == newest,
                found: Found::from_columns(
                    r.get(5)?,
                    (r.get(6)?, r.get(7)?, r.get(8)?, r.get(9)?),
                    (r.get(10)?, r.get(11)?, r.get(12)?, r.get(13)?),
                    r.get(14)?,
                ),
            })
        })
        .map_err(db("cannot read the changes"))?;
    rows.collect::<Result<_, _>>()
        .map_err(db("cannot read a change"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Level;
    use plumb_model::quantity::{Confidence, Fraction};
    use plumb_model::{
        Benchmark, BenchmarkKind, Environment, Invocation, ProducerSettings, Settings,
    };

    /// A result of `names`, each with ten runs around `ns`, its statistics filled.
    fn result(names: &[&str], ns: u64) -> ResultDocument {
        let settings = Settings {
            confidence: Confidence::DEFAULT,
            sesoi: Fraction::DEFAULT_SESOI,
            question: Default::default(),
            producer: ProducerSettings::None,
        };
        let env = Environment {
            cpu_model: Some("Test CPU".into()),
            ..Environment::default()
        };
        let mut doc = ResultDocument::new("0.0.0-test", Invocation::current(), env, settings);
        for name in names {
            let times = (0..10).map(|i| ns + i);
            let b = Benchmark::of_wall_times(*name, BenchmarkKind::Command, times);
            doc.benchmarks.push(b);
        }
        let _ = plumb_analysis::complete_statistics(&mut doc);
        doc
    }

    fn commit(sha: &str, secs: u64) -> Commit {
        Commit {
            sha: sha.into(),
            time: Timestamp::from_unix_nanos(secs * 1_000_000_000),
            branch: Some("main".into()),
            dirty: false,
        }
    }

    #[test]
    fn results_are_kept_as_series_of_points_in_commit_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteStore::open(&dir.path().join("h.db")).unwrap();
        // Recorded out of order: the later commit first.
        store
            .add(&result(&["a", "b"], 2000), Some(&commit("bbb", 200)))
            .unwrap();
        store
            .add(&result(&["a"], 1000), Some(&commit("aaa", 100)))
            .unwrap();
        let series = store.series().unwrap();
        assert_eq!(series.len(), 2);
        let a = series.iter().find(|s| s.key.benchmark == "a").unwrap();
        assert_eq!((a.points, a.key.metric.as_str()), (2, "wall-time"));
        let points = store.points(a.id).unwrap();
        let shas: Vec<&str> = points
            .iter()
            .map(|p| p.commit.as_ref().unwrap().sha.as_str())
            .collect();
        assert_eq!(shas, ["aaa", "bbb"]);
        assert_eq!(points[0].point.mean, 1004.5);
        assert_eq!(points[0].point.n, 10);
        assert_eq!(points[0].point.unit.as_str(), "ns");
        let (lo, hi) = points[0].point.interval.unwrap();
        assert!(lo < 1004.5 && 1004.5 < hi);
        // The whole result is kept.
        let doc = store.document(points[1].run).unwrap();
        // The same result again is not kept twice.
        let again = store.add(&doc, Some(&commit("bbb", 200))).unwrap();
        assert!(!again.new);
        assert_eq!(again.run, points[1].run);
        assert_eq!(doc.benchmarks.len(), 2);
        assert_eq!(doc.benchmarks[1].name, "b");
        // Reopened: the schema is not migrated twice and the points are all there.
        drop(store);
        let mut store = SqliteStore::open(&dir.path().join("h.db")).unwrap();
        assert_eq!(store.points(a.id).unwrap().len(), 2);
    }

    /// Names come from users and reach SQL: every statement is parameterised.
    #[test]
    fn a_name_that_is_sql_is_kept_as_a_name() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteStore::open(&dir.path().join("h.db")).unwrap();
        let evil = "x'); DROP TABLE points; --";
        store.add(&result(&[evil], 1000), None).unwrap();
        store.add(&result(&[evil], 1100), None).unwrap();
        let series = store.series().unwrap();
        assert_eq!(series[0].key.benchmark, evil);
        assert_eq!(store.points(series[0].id).unwrap().len(), 2);
    }

    #[test]
    fn changes_keep_their_status_and_are_new_only_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteStore::open(&dir.path().join("h.db")).unwrap();
        let runs: Vec<i64> = (0..4)
            .map(|i| {
                store
                    .add(&result(&["a"], 1000 + i * 100), None)
                    .unwrap()
                    .run
            })
            .collect();
        let series = store.series().unwrap()[0].id;
        let now = Timestamp::from_unix_nanos(1_000_000_000);
        let record = |store: &mut SqliteStore, found: &[(i64, Found)]| {
            store
                .record_changes(series, ChangeMethod::Plumb, found, now)
                .unwrap()
        };
        let found = |at_run, after: f64| Found {
            at_run,
            before: Level {
                n: 2,
                mean: 1000.0,
                interval: Some((990.0, 1010.0)),
            },
            after: Level {
                n: 2,
                mean: after,
                interval: None,
            },
            p: 1e-4,
        };
        let first = record(&mut store, &[(runs[2], found(runs[2], 1200.0))]);
        assert_eq!(first.len(), 1);
        assert!(first[0].new && first[0].status == ChangeStatus::Candidate);
        assert_eq!(first[0].found, Some(found(runs[2], 1200.0)));
        // New until another result comes; what the last analysis found replaces the
        // levels an earlier one found (the change moved a point, its level grew).
        let again = record(&mut store, &[(runs[2], found(runs[3], 1300.0))]);
        assert!(again[0].new);
        assert_eq!(
            store.changes(series, ChangeMethod::Plumb).unwrap()[0].found,
            Some(found(runs[3], 1300.0))
        );
        store.add(&result(&["a"], 1400), None).unwrap();
        let after = record(&mut store, &[(runs[2], found(runs[2], 1200.0))]);
        assert!(!after[0].new);
        store
            .set_status(
                series,
                runs[2],
                ChangeStatus::Acknowledged,
                Some("intended"),
            )
            .unwrap();
        // Not found any more: an acknowledged change is kept, a candidate is forgotten.
        record(&mut store, &[(runs[1], found(runs[1], 1100.0))]);
        let later = record(&mut store, &[]);
        assert_eq!(later.len(), 1);
        assert_eq!(later[0].run, runs[2]);
        assert_eq!(later[0].status, ChangeStatus::Acknowledged);
        assert_eq!(later[0].note.as_deref(), Some("intended"));
        let e = store
            .set_status(series, runs[0], ChangeStatus::Rejected, None)
            .unwrap_err();
        assert!(e
            .to_string()
            .starts_with("no change point recorded in series"));
    }

    #[test]
    fn a_point_keeps_its_standard_error() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteStore::open(&dir.path().join("h.db")).unwrap();
        store.add(&result(&["a"], 1000), None).unwrap();
        let id = store.series().unwrap()[0].id;
        let p = &store.points(id).unwrap()[0].point;
        // Ten values 1000..1009: sd = 3.0277, se = sd/√10 = 0.957427.
        assert!((p.stderr.unwrap() - 0.957427).abs() < 1e-5, "{p:?}");
    }

    #[test]
    fn a_store_of_a_newer_schema_is_refused_by_its_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.db");
        drop(SqliteStore::open(&path).unwrap());
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", VERSION + 1)
            .unwrap();
        drop(conn);
        let e = SqliteStore::open(&path).err().unwrap().to_string();
        assert_eq!(
            e,
            format!("the history store has schema version {}, newer than this plumb's {VERSION}: use a newer plumb to read it", VERSION + 1)
        );
    }

    /// A confirming result is kept whole beside its change, read back in order; and a
    /// store made at schema version 1 (before confirmations) is migrated to keep them,
    /// its results untouched.
    #[test]
    fn confirmations_are_kept_beside_their_change_and_a_version_1_store_migrates() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.db");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
        }
        let mut store = SqliteStore::open(&path).unwrap();
        let run = store.add(&result(&["a"], 1000), None).unwrap().run;
        let series = store.series().unwrap()[0].id;
        let doc = result(&["A", "B"], 2000);
        let keep = |verdict: &str, culprit: Option<&str>| Confirmation {
            series,
            run,
            recorded: Timestamp::from_unix_nanos(5_000_000_000),
            base_sha: "a".repeat(40),
            new_sha: "b".repeat(40),
            verdict: verdict.into(),
            culprit: culprit.map(str::to_string),
            document: doc.clone(),
        };
        store.keep_confirmation(&keep("unknown", None)).unwrap();
        store
            .keep_confirmation(&keep("confirmed", Some("c")))
            .unwrap();
        let back = store.confirmations(series, run).unwrap();
        assert_eq!(back, [keep("unknown", None), keep("confirmed", Some("c"))]);
        assert!(store.confirmations(series, run + 1).unwrap().is_empty());
        let version: u32 = Connection::open(&path)
            .unwrap()
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(version, VERSION);
    }

    /// A store made at schema version 2 keeps its changes (status, note) when migrated;
    /// what was found of them is unknown until an analysis finds them again.
    #[test]
    fn a_version_2_store_migrates_keeping_its_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.db");
        let run = {
            let mut store = SqliteStore::open(&path).unwrap();
            store.add(&result(&["a"], 1000), None).unwrap().run
        };
        {
            // Back to what a plumb of schema 2 wrote: the new columns gone, a change kept.
            let conn = Connection::open(&path).unwrap();
            for column in [
                "at_run",
                "before_n",
                "before_mean",
                "before_lo",
                "before_hi",
            ]
            .into_iter()
            .chain(["after_n", "after_mean", "after_lo", "after_hi", "p"])
            {
                conn.execute_batch(&format!("ALTER TABLE changes DROP COLUMN {column}"))
                    .unwrap();
            }
            conn.execute(
                "INSERT INTO changes (series, run, status, first_seen, seen_at_run, note)
                 VALUES (1, ?1, 'acknowledged', '2026-01-01T00:00:00Z', ?1, 'intended')",
                params![run],
            )
            .unwrap();
            conn.execute_batch("UPDATE runs SET digest = substr(digest, 1, 16)")
                .unwrap();
            conn.pragma_update(None, "user_version", 2).unwrap();
        }
        let mut store = SqliteStore::open(&path).unwrap();
        let kept = store.changes(1, ChangeMethod::Plumb).unwrap();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].status, ChangeStatus::Acknowledged);
        assert_eq!(kept[0].note.as_deref(), Some("intended"));
        assert_eq!(kept[0].found, None);
    }

    /// A store of schema version 3 keyed runs by their document alone: migrated, a run's
    /// key is its document at its commit, so adding it again at its commit is still a
    /// duplicate, and at another commit another point.
    #[test]
    fn a_version_3_store_migrates_its_runs_keys() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.db");
        let doc = result(&["a"], 1000);
        let run = SqliteStore::open(&path)
            .unwrap()
            .add(&doc, None)
            .unwrap()
            .run;
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch("UPDATE runs SET digest = substr(digest, 1, 16)")
                .unwrap();
            conn.pragma_update(None, "user_version", 3).unwrap();
        }
        let mut store = SqliteStore::open(&path).unwrap();
        let again = store.add(&doc, None).unwrap();
        assert_eq!((again.run, again.new), (run, false));
        let commit = Commit {
            sha: "c0ffee".into(),
            time: Timestamp::from_unix_nanos(0),
            branch: None,
            dirty: false,
        };
        assert!(store.add(&doc, Some(&commit)).unwrap().new);
    }
}
