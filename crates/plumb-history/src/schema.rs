//! The store's schema, versioned: each version a migration from the one before, applied
//! in one transaction. A store of a newer version than this plumb knows is refused, never
//! migrated down.

/// The schema this plumb writes.
pub const VERSION: u32 = 5;

/// Migration `i` takes the schema from version `i` to `i + 1`. (Version 1 was reshaped
/// before any plumb wrote a store: no released plumb has another version 1.)
pub const MIGRATIONS: [&str; VERSION as usize] = [
    // Version 1: machines, runs (the whole document, its commit), series, points (with the
    // standard error of each mean: what a point weighs in change detection), the change
    // points found, with the status people and re-runs give them, and each series' last
    // analysis (so a new point re-analyses only the windows it reaches).
    "CREATE TABLE machines (
         id INTEGER PRIMARY KEY,
         fingerprint TEXT NOT NULL UNIQUE
     );
     CREATE TABLE runs (
         id INTEGER PRIMARY KEY,
         recorded TEXT NOT NULL,
         machine INTEGER NOT NULL REFERENCES machines(id),
         commit_sha TEXT,
         commit_time TEXT,
         branch TEXT,
         dirty INTEGER NOT NULL DEFAULT 0,
         plumb_version TEXT NOT NULL,
         digest TEXT NOT NULL UNIQUE,
         document BLOB NOT NULL
     );
     CREATE TABLE series (
         id INTEGER PRIMARY KEY,
         benchmark TEXT NOT NULL,
         parameters TEXT NOT NULL,
         metric TEXT NOT NULL,
         machine INTEGER NOT NULL REFERENCES machines(id),
         UNIQUE (benchmark, parameters, metric, machine)
     );
     CREATE TABLE points (
         series INTEGER NOT NULL REFERENCES series(id),
         run INTEGER NOT NULL REFERENCES runs(id),
         n INTEGER NOT NULL,
         mean REAL NOT NULL,
         median REAL NOT NULL,
         ci_lo REAL,
         ci_hi REAL,
         stderr REAL,
         unit TEXT NOT NULL,
         PRIMARY KEY (series, run)
     );
     CREATE INDEX points_by_run ON points(run);
     CREATE TABLE changes (
         series INTEGER NOT NULL REFERENCES series(id),
         run INTEGER NOT NULL REFERENCES runs(id),
         status TEXT NOT NULL,
         first_seen TEXT NOT NULL,
         seen_at_run INTEGER NOT NULL,
         note TEXT,
         PRIMARY KEY (series, run)
     );
     CREATE TABLE analysis (
         series INTEGER PRIMARY KEY REFERENCES series(id),
         state TEXT NOT NULL
     );",
    // Version 2: the results that confirmed or rejected a change point by re-running the
    // two revisions (`plumb history confirm`), whole, with the verdict and the culprit a
    // bisection found.
    "CREATE TABLE confirmations (
         id INTEGER PRIMARY KEY,
         series INTEGER NOT NULL REFERENCES series(id),
         run INTEGER NOT NULL REFERENCES runs(id),
         recorded TEXT NOT NULL,
         base_sha TEXT NOT NULL,
         new_sha TEXT NOT NULL,
         verdict TEXT NOT NULL,
         culprit TEXT,
         document BLOB NOT NULL
     );
     CREATE INDEX confirmations_by_change ON confirmations(series, run);",
    // Version 3: what the last analysis found of each change, kept with it (where its
    // new level starts, both levels, the p-value), so that every view reads one record.
    "ALTER TABLE changes ADD COLUMN at_run INTEGER;
     ALTER TABLE changes ADD COLUMN before_n INTEGER;
     ALTER TABLE changes ADD COLUMN before_mean REAL;
     ALTER TABLE changes ADD COLUMN before_lo REAL;
     ALTER TABLE changes ADD COLUMN before_hi REAL;
     ALTER TABLE changes ADD COLUMN after_n INTEGER;
     ALTER TABLE changes ADD COLUMN after_mean REAL;
     ALTER TABLE changes ADD COLUMN after_lo REAL;
     ALTER TABLE changes ADD COLUMN after_hi REAL;
     ALTER TABLE changes ADD COLUMN p REAL;",
    // Version 4: a run is the same run only at the same commit: its key is the
    // document's digest and the commit (`digest@sha`). A series whose values repeat (one
    // figure a push, rounded) keeps each point at its own commit.
    "UPDATE runs SET digest = digest || '@' || COALESCE(commit_sha, '');",
    // Version 5: a change is recorded per method, plumb's or Otava's (`--otava-parity`),
    // so a parity analysis is kept beside plumb's without touching it. SQLite cannot
    // change a primary key in place: the table is made anew and its rows kept as plumb's.
    "CREATE TABLE changes_v5 (
         series INTEGER NOT NULL REFERENCES series(id),
         run INTEGER NOT NULL REFERENCES runs(id),
         method TEXT NOT NULL DEFAULT 'plumb',
         status TEXT NOT NULL,
         first_seen TEXT NOT NULL,
         seen_at_run INTEGER NOT NULL,
         note TEXT,
         at_run INTEGER,
         before_n INTEGER,
         before_mean REAL,
         before_lo REAL,
         before_hi REAL,
         after_n INTEGER,
         after_mean REAL,
         after_lo REAL,
         after_hi REAL,
         p REAL,
         PRIMARY KEY (series, run, method)
     );
     INSERT INTO changes_v5 (series, run, status, first_seen, seen_at_run, note, at_run,
         before_n, before_mean, before_lo, before_hi, after_n, after_mean, after_lo, after_hi, p)
     SELECT series, run, status, first_seen, seen_at_run, note, at_run,
         before_n, before_mean, before_lo, before_hi, after_n, after_mean, after_lo, after_hi, p
     FROM changes;
     DROP TABLE changes;
     ALTER TABLE changes_v5 RENAME TO changes;",
];

/// The same schema in PostgreSQL's types, version for version with `MIGRATIONS`; the
/// version is kept in `plumb_schema` (PostgreSQL has no `user_version`).
#[cfg(feature = "postgres")]
pub const PG_MIGRATIONS: [&str; VERSION as usize] = [
    "CREATE TABLE machines (
         id BIGSERIAL PRIMARY KEY,
         fingerprint TEXT NOT NULL UNIQUE
     );
     CREATE TABLE runs (
         id BIGSERIAL PRIMARY KEY,
         recorded TEXT NOT NULL,
         machine BIGINT NOT NULL REFERENCES machines(id),
         commit_sha TEXT,
         commit_time TEXT,
         branch TEXT,
         dirty BOOLEAN NOT NULL DEFAULT FALSE,
         plumb_version TEXT NOT NULL,
         digest TEXT NOT NULL UNIQUE,
         document BYTEA NOT NULL
     );
     CREATE TABLE series (
         id BIGSERIAL PRIMARY KEY,
         benchmark TEXT NOT NULL,
         parameters TEXT NOT NULL,
         metric TEXT NOT NULL,
         machine BIGINT NOT NULL REFERENCES machines(id),
         UNIQUE (benchmark, parameters, metric, machine)
     );
     CREATE TABLE points (
         series BIGINT NOT NULL REFERENCES series(id),
         run BIGINT NOT NULL REFERENCES runs(id),
         n BIGINT NOT NULL,
         mean DOUBLE PRECISION NOT NULL,
         median DOUBLE PRECISION NOT NULL,
         ci_lo DOUBLE PRECISION,
         ci_hi DOUBLE PRECISION,
         stderr DOUBLE PRECISION,
         unit TEXT NOT NULL,
         PRIMARY KEY (series, run)
     );
     CREATE INDEX points_by_run ON points(run);
     CREATE TABLE changes (
         series BIGINT NOT NULL REFERENCES series(id),
         run BIGINT NOT NULL REFERENCES runs(id),
         status TEXT NOT NULL,
         first_seen TEXT NOT NULL,
         seen_at_run BIGINT NOT NULL,
         note TEXT,
         PRIMARY KEY (series, run)
     );
     CREATE TABLE analysis (
         series BIGINT PRIMARY KEY REFERENCES series(id),
         state TEXT NOT NULL
     );",
    "CREATE TABLE confirmations (
         id BIGSERIAL PRIMARY KEY,
         series BIGINT NOT NULL REFERENCES series(id),
         run BIGINT NOT NULL REFERENCES runs(id),
         recorded TEXT NOT NULL,
         base_sha TEXT NOT NULL,
         new_sha TEXT NOT NULL,
         verdict TEXT NOT NULL,
         culprit TEXT,
         document BYTEA NOT NULL
     );
     CREATE INDEX confirmations_by_change ON confirmations(series, run);",
    "ALTER TABLE changes ADD COLUMN at_run BIGINT,
         ADD COLUMN before_n BIGINT,
         ADD COLUMN before_mean DOUBLE PRECISION,
         ADD COLUMN before_lo DOUBLE PRECISION,
         ADD COLUMN before_hi DOUBLE PRECISION,
         ADD COLUMN after_n BIGINT,
         ADD COLUMN after_mean DOUBLE PRECISION,
         ADD COLUMN after_lo DOUBLE PRECISION,
         ADD COLUMN after_hi DOUBLE PRECISION,
         ADD COLUMN p DOUBLE PRECISION;",
    "UPDATE runs SET digest = digest || '@' || COALESCE(commit_sha, '');",
    "ALTER TABLE changes ADD COLUMN method TEXT NOT NULL DEFAULT 'plumb';
     ALTER TABLE changes DROP CONSTRAINT changes_pkey;
     ALTER TABLE changes ADD PRIMARY KEY (series, run, method);",
];
