//! A team's home of the history: PostgreSQL, the same schema as SQLite's in its types,
//! migrated on open under an advisory lock (two plumbs starting at once migrate once),
//! every statement parameterised, TLS as libpq's sslmode asks, the password never shown.
mod tls;

use crate::document::{compress, decompress, run_key};
use crate::pg_url::{self as url, StoreUrl};
use crate::points::points_of;
use crate::schema::{PG_MIGRATIONS, VERSION};
use crate::statements::{self as S, dollars};
use crate::{Added, ChangeStatus, Commit, HistoryError, HistoryStore, MachineFingerprint, Point};
use crate::{
    ChangeMethod, Confirmation, Found, SeriesKey, StoredChange, StoredPoint, StoredSeries,
};
use plumb_model::quantity::Timestamp;
use plumb_model::ResultDocument;
use postgres::{Client, Config, Row, Transaction};
use std::time::Duration;

/// How long connecting may take (the TCP connect, TLS, the start-up's answer), unless
/// `PLUMB_HISTORY_CONNECT_WAIT` says other seconds.
const CONNECT_WAIT: Duration = Duration::from_secs(10);
/// The longest one statement may run on the server.
const STATEMENT_WAIT: Duration = Duration::from_secs(60);

fn connect_wait() -> Duration {
    std::env::var("PLUMB_HISTORY_CONNECT_WAIT")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(CONNECT_WAIT, Duration::from_secs_f64)
}
/// The advisory lock under which the schema is migrated ("plumb" in ASCII).
const MIGRATION_LOCK: i64 = 0x0070_6c75_6d62;

pub struct PostgresStore {
    client: Client,
    shown: String,
}

/// An error of the database while doing `what`, the URL shown without its password.
fn pg(what: &'static str) -> impl Fn(postgres::Error) -> HistoryError {
    move |e| HistoryError::Database {
        what,
        cause: match e.as_db_error() {
            Some(db) => db.message().to_string(),
            None => e.to_string(),
        },
    }
}

impl PostgresStore {
    /// Connects to the store at `url` (postgres:// or postgresql://) and brings its schema
    /// to this plumb's version; a newer schema is refused. The password comes from the URL,
    /// else `PGPASSWORD`, else `PGPASSFILE` or `~/.pgpass`.
    pub fn open(url: &str) -> Result<PostgresStore, HistoryError> {
        let parsed = StoreUrl::parse(url).map_err(|e| HistoryError::Database {
            what: "cannot read the store's URL",
            cause: e.to_string(),
        })?;
        let shown = parsed.shown.clone();
        let unreachable = |cause: String| HistoryError::Database {
            what: "cannot connect",
            cause: format!("{shown}: {cause}"),
        };
        let mut config: Config = parsed
            .driver
            .parse()
            .map_err(|e: postgres::Error| unreachable(url::redacted(&e.to_string())))?;
        if config.get_password().is_none() {
            let host = match config.get_hosts().first() {
                Some(postgres::config::Host::Tcp(h)) => h.clone(),
                _ => "localhost".into(),
            };
            let port = config.get_ports().first().copied().unwrap_or(5432);
            let user = config.get_user().unwrap_or_default().to_string();
            let db = config.get_dbname().unwrap_or(&user).to_string();
            if let Some(p) = url::password_from_environment(&host, port, &db, &user) {
                config.password(p);
            }
        }
        let wait = connect_wait();
        config
            .application_name(&format!("plumb (pid {})", std::process::id()))
            .connect_timeout(wait)
            .options(&format!(
                "-c statement_timeout={}",
                STATEMENT_WAIT.as_millis()
            ));
        let connector = tls::connector(&parsed).map_err(|e| unreachable(e.to_string()))?;
        // The driver's timeout covers the TCP connect only: a server that accepts and
        // never answers would hold the start-up for ever. Waited for here, bounded; the
        // thread left behind ends with the process.
        let (sent, answer) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = sent.send(config.connect(connector));
        });
        let client = match answer.recv_timeout(wait) {
            Ok(connected) => connected.map_err(|e| unreachable(connect_error(&e)))?,
            Err(_) => {
                let waited = plumb_model::format::time(plumb_model::quantity::Duration::from(wait));
                return Err(unreachable(format!(
                    "the server did not answer within {waited} (PLUMB_HISTORY_CONNECT_WAIT)"
                )));
            }
        };
        let mut store = PostgresStore { client, shown };
        store.migrate()?;
        Ok(store)
    }

    fn migrate(&mut self) -> Result<(), HistoryError> {
        let mut tx = self
            .client
            .transaction()
            .map_err(pg("cannot start a migration"))?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .map_err(pg("cannot take the migration lock"))?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS plumb_schema (version INTEGER NOT NULL)")
            .map_err(pg("cannot read the schema version"))?;
        let found: Option<i32> = tx
            .query_opt("SELECT version FROM plumb_schema", &[])
            .map_err(pg("cannot read the schema version"))?
            .map(|r| r.get(0));
        let found = found.unwrap_or(0) as u32;
        if found > VERSION {
            return Err(HistoryError::NewerSchema {
                found,
                known: VERSION,
            });
        }
        for sql in PG_MIGRATIONS.iter().skip(found as usize) {
            tx.batch_execute(sql)
                .map_err(pg("cannot migrate the schema"))?;
        }
        if found < VERSION {
            tx.execute("DELETE FROM plumb_schema", &[])
                .map_err(pg("cannot record the schema version"))?;
            tx.execute("INSERT INTO plumb_schema VALUES ($1)", &[&(VERSION as i32)])
                .map_err(pg("cannot record the schema version"))?;
        }
        tx.commit().map_err(pg("cannot commit a migration"))
    }

    /// A transaction whose lock waits are bounded.
    fn write(&mut self) -> Result<Transaction<'_>, HistoryError> {
        let mut tx = self
            .client
            .transaction()
            .map_err(pg("cannot start a write"))?;
        // The same bound as SQLite's (PLUMB_HISTORY_LOCK_WAIT), in milliseconds.
        let ms = crate::sqlite::lock_wait().as_millis().max(1);
        tx.batch_execute(&format!("SET LOCAL lock_timeout = {ms}"))
            .map_err(pg("cannot bound the lock wait"))?;
        Ok(tx)
    }

    /// The URL the store was opened at, its password hidden.
    pub fn shown(&self) -> &str {
        &self.shown
    }
}

/// A connection error in a line, with no password in it.
fn connect_error(e: &postgres::Error) -> String {
    let text = match e.as_db_error() {
        Some(db) => db.message().to_string(),
        None => {
            let mut t = e.to_string();
            let mut source = std::error::Error::source(e);
            while let Some(s) = source {
                t = format!("{t}: {s}");
                source = s.source();
            }
            t
        }
    };
    url::redacted(&text)
}

impl HistoryStore for PostgresStore {
    fn add(
        &mut self,
        doc: &ResultDocument,
        commit: Option<&Commit>,
    ) -> Result<Added, HistoryError> {
        let machine = MachineFingerprint::of(doc);
        let holders = self.lock_holders();
        let mut tx = self.write()?;
        let added = add_in(&mut tx, doc, commit, &machine);
        match added {
            Ok(run) => {
                tx.commit().map_err(pg("cannot commit the run"))?;
                Ok(run)
            }
            Err(e) if e.code() == Some(&postgres::error::SqlState::LOCK_NOT_AVAILABLE) => {
                Err(HistoryError::Locked {
                    waited: crate::sqlite::lock_wait(),
                    holders,
                })
            }
            Err(e) => Err(pg("cannot record the run")(e)),
        }
    }

    fn analysis(&mut self, series: i64) -> Result<Option<String>, HistoryError> {
        Ok(self
            .client
            .query_opt(&dollars(S::ANALYSIS), &[&series])
            .map_err(pg("cannot read an analysis"))?
            .map(|r| r.get(0)))
    }

    fn save_analysis(&mut self, series: i64, state: &str) -> Result<(), HistoryError> {
        self.client
            .execute(&dollars(S::SAVE_ANALYSIS), &[&series, &state])
            .map_err(pg("cannot keep an analysis"))?;
        Ok(())
    }

    fn document(&mut self, run: i64) -> Result<ResultDocument, HistoryError> {
        let bytes: Vec<u8> = self
            .client
            .query_one(&dollars(S::DOCUMENT), &[&run])
            .map_err(pg("cannot read a kept result"))?
            .get(0);
        let json = decompress(&bytes)?;
        ResultDocument::from_json(&json).map_err(|e| HistoryError::Document(e.to_string()))
    }

    fn series(&mut self) -> Result<Vec<StoredSeries>, HistoryError> {
        let rows = self
            .client
            .query(&dollars(S::SERIES), &[])
            .map_err(pg("cannot list the series"))?;
        Ok(rows
            .iter()
            .map(|r| StoredSeries {
                id: r.get(0),
                key: SeriesKey {
                    benchmark: r.get(1),
                    parameters: serde_json::from_str(r.get(2)).unwrap_or_default(),
                    metric: r.get(3),
                    machine: MachineFingerprint(r.get(4)),
                },
                points: r.get::<_, i64>(5) as u64,
            })
            .collect())
    }

    fn points(&mut self, series: i64) -> Result<Vec<StoredPoint>, HistoryError> {
        let rows = self
            .client
            .query(&dollars(S::POINTS), &[&series])
            .map_err(pg("cannot read the points"))?;
        Ok(rows.iter().map(stored_point).collect())
    }

    fn record_changes(
        &mut self,
        series: i64,
        method: ChangeMethod,
        found: &[(i64, Found)],
        now: Timestamp,
    ) -> Result<Vec<StoredChange>, HistoryError> {
        let mut tx = self.write()?;
        let newest: i64 = tx
            .query_one(&dollars(S::NEWEST_RUN), &[])
            .map_err(pg("cannot read the newest run"))?
            .get(0);
        let runs: Vec<i64> = found.iter().map(|f| f.0).collect();
        // A change no longer found is forgotten while nobody has spoken of it.
        tx.execute(
            &dollars(S::FORGET_CHANGES_PG),
            &[&series, &runs, &method.name()],
        )
        .map_err(pg("cannot forget a change"))?;
        for (run, f) in found {
            let (at, (bn, bm, blo, bhi), (an, am, alo, ahi), p) = f.columns();
            let now = now.to_string();
            tx.execute(
                &dollars(S::RECORD_CHANGE),
                &[
                    &series,
                    run,
                    &now,
                    &newest,
                    &at,
                    &bn,
                    &bm,
                    &blo,
                    &bhi,
                    &an,
                    &am,
                    &alo,
                    &ahi,
                    &p,
                    &method.name(),
                ],
            )
            .map_err(pg("cannot record a change"))?;
        }
        let out = read_changes(&mut tx, (series, method), newest)?;
        tx.commit().map_err(pg("cannot commit the changes"))?;
        Ok(out)
    }

    fn changes(
        &mut self,
        series: i64,
        method: ChangeMethod,
    ) -> Result<Vec<StoredChange>, HistoryError> {
        let mut tx = self
            .client
            .transaction()
            .map_err(pg("cannot read the changes"))?;
        let newest: i64 = tx
            .query_one(&dollars(S::NEWEST_RUN), &[])
            .map_err(pg("cannot read the newest run"))?
            .get(0);
        read_changes(&mut tx, (series, method), newest)
    }

    fn keep_confirmation(&mut self, c: &Confirmation) -> Result<i64, HistoryError> {
        let json = c.document.to_json();
        let row = self
            .client
            .query_one(
                &dollars(S::KEEP_CONFIRMATION),
                &[
                    &c.series,
                    &c.run,
                    &c.recorded.to_string(),
                    &c.base_sha,
                    &c.new_sha,
                    &c.verdict,
                    &c.culprit,
                    &compress(&json),
                ],
            )
            .map_err(pg("cannot keep a confirmation"))?;
        Ok(row.get(0))
    }

    fn confirmations(&mut self, series: i64, run: i64) -> Result<Vec<Confirmation>, HistoryError> {
        let rows = self
            .client
            .query(&dollars(S::CONFIRMATIONS), &[&series, &run])
            .map_err(pg("cannot read the confirmations"))?;
        rows.iter()
            .map(|r| {
                let recorded: String = r.get(0);
                let document: Vec<u8> = r.get(5);
                crate::store::confirmation_from(
                    (series, run),
                    (&recorded, r.get(1), r.get(2), r.get(3), r.get(4)),
                    &document,
                )
            })
            .collect()
    }

    fn set_status(
        &mut self,
        series: i64,
        run: i64,
        status: ChangeStatus,
        note: Option<&str>,
    ) -> Result<(), HistoryError> {
        let changed = self
            .client
            .execute(
                &dollars(S::SET_STATUS),
                &[&series, &run, &status.name(), &note],
            )
            .map_err(pg("cannot set a change's status"))?;
        if changed == 0 {
            return Err(HistoryError::NoSuchChange { series, run });
        }
        Ok(())
    }
}

impl PostgresStore {
    /// Who else is in a transaction on this database now, said for a lock timeout: taken
    /// before the write, since after a timeout the holder may have gone.
    fn lock_holders(&mut self) -> Vec<String> {
        let rows = self
            .client
            .query(
                "SELECT pid, COALESCE(application_name, ''), COALESCE(usename::text, ''),
                        COALESCE(to_char(xact_start, 'YYYY-MM-DD\"T\"HH24:MI:SS'), '')
                 FROM pg_stat_activity
                 WHERE datname = current_database() AND pid <> pg_backend_pid()
                   AND xact_start IS NOT NULL",
                &[],
            )
            .unwrap_or_default();
        rows.iter()
            .map(|r| {
                let (pid, app, user, since): (i32, String, String, String) =
                    (r.get(0), r.get(1), r.get(2), r.get(3));
                let app = if app.is_empty() {
                    String::new()
                } else {
                    format!("{app}, ")
                };
                format!("server pid {pid} ({app}user {user}, in a transaction since {since})")
            })
            .collect()
    }
}

/// `add`'s statements in `tx`.
fn add_in(
    tx: &mut Transaction,
    doc: &ResultDocument,
    commit: Option<&Commit>,
    machine: &MachineFingerprint,
) -> Result<Added, postgres::Error> {
    let json = doc.to_json();
    let id = run_key(&json, commit);
    tx.execute(&dollars(S::ADD_MACHINE), &[&machine.0])?;
    let machine_id: i64 = tx.query_one(&dollars(S::MACHINE_ID), &[&machine.0])?.get(0);
    let inserted = tx.query_opt(
        &dollars(S::ADD_RUN),
        &[
            &doc.started.to_string(),
            &machine_id,
            &commit.map(|c| c.sha.clone()),
            &commit.map(|c| c.time.to_string()),
            &commit.and_then(|c| c.branch.clone()),
            &commit.is_some_and(|c| c.dirty),
            &doc.tool.version,
            &id,
            &compress(&json),
        ],
    )?;
    let Some(row) = inserted else {
        let run: i64 = tx.query_one(&dollars(S::RUN_BY_DIGEST), &[&id])?.get(0);
        return Ok(Added { run, new: false });
    };
    let run: i64 = row.get(0);
    for (key, p) in points_of(doc, machine) {
        let parameters = key.parameters_text();
        tx.execute(
            &dollars(S::ADD_SERIES),
            &[&key.benchmark, &parameters, &key.metric, &machine_id],
        )?;
        let series: i64 = tx
            .query_one(
                &dollars(S::SERIES_ID),
                &[&key.benchmark, &parameters, &key.metric, &machine_id],
            )?
            .get(0);
        tx.execute(
            &dollars(S::ADD_POINT),
            &[
                &series,
                &run,
                &(p.n as i64),
                &p.mean,
                &p.median,
                &p.interval.map(|i| i.0),
                &p.interval.map(|i| i.1),
                &p.stderr,
                &p.unit.as_str(),
            ],
        )?;
    }
    Ok(Added { run, new: true })
}

/// The changes recorded in `series`, each new when first seen while `newest` was the
/// newest run.
fn read_changes(
    tx: &mut Transaction,
    (series, method): (i64, ChangeMethod),
    newest: i64,
) -> Result<Vec<StoredChange>, HistoryError> {
    let rows = tx
        .query(&dollars(S::CHANGES), &[&series, &method.name()])
        .map_err(pg("cannot read the changes"))?;
    Ok(rows
        .iter()
        .map(|r| StoredChange {
            series,
            run: r.get(0),
            method,
            status: ChangeStatus::from_name(r.get(1)).unwrap_or(ChangeStatus::Candidate),
            first_seen: r.get::<_, String>(2).parse().unwrap_or(Timestamp::EPOCH),
            note: r.get(3),
            new: r.get::<_, i64>(4) == newest,
            found: Found::from_columns(
                r.get(5),
                (r.get(6), r.get(7), r.get(8), r.get(9)),
                (r.get(10), r.get(11), r.get(12), r.get(13)),
                r.get(14),
            ),
        })
        .collect())
}

fn stored_point(r: &Row) -> StoredPoint {
    let moment = |s: Option<String>| {
        s.and_then(|s| s.parse::<Timestamp>().ok())
            .unwrap_or(Timestamp::EPOCH)
    };
    let sha: Option<String> = r.get(2);
    let commit = sha.map(|sha| Commit {
        sha,
        time: moment(r.get(3)),
        branch: r.get(4),
        dirty: r.get(5),
    });
    let (lo, hi): (Option<f64>, Option<f64>) = (r.get(10), r.get(11));
    StoredPoint {
        run: r.get(0),
        recorded: moment(r.get(1)),
        commit,
        plumb_version: r.get(6),
        point: Point {
            n: r.get::<_, i64>(7) as u64,
            mean: r.get(8),
            median: r.get(9),
            interval: crate::series::interval_read(lo, hi),
            stderr: r.get(13),
            unit: crate::sqlite::unit_of(r.get(12)),
        },
    }
}
