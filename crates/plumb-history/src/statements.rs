//! Every statement both stores run, written once in SQLite's placeholders (`?1`, `?2`, …);
//! PostgreSQL's store runs the same text with `$1`, `$2`, … (`dollars`). The two that the
//! dialects cannot share are named for theirs, side by side, and say why.
//!
//! Why not a query builder (sea-query): the statements are few and fixed, their text is
//! what a reader of the store wants to see, and a builder would add a dependency to every
//! build that keeps a history, for two placeholder syntaxes.

/// The newest run's id (0 for an empty store): what makes a change "new".
pub const NEWEST_RUN: &str = "SELECT COALESCE(MAX(id), 0) FROM runs";

pub const ADD_MACHINE: &str =
    "INSERT INTO machines (fingerprint) VALUES (?1) ON CONFLICT (fingerprint) DO NOTHING";
pub const MACHINE_ID: &str = "SELECT id FROM machines WHERE fingerprint = ?1";

/// A run kept whole; nothing when the same document is kept already at the same commit
/// (its key, `document::run_key`).
pub const ADD_RUN: &str = "INSERT INTO runs (recorded, machine, commit_sha, commit_time, branch, dirty, plumb_version, digest, document)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT (digest) DO NOTHING RETURNING id";
pub const RUN_BY_DIGEST: &str = "SELECT id FROM runs WHERE digest = ?1";
pub const DOCUMENT: &str = "SELECT document FROM runs WHERE id = ?1";

pub const ADD_SERIES: &str =
    "INSERT INTO series (benchmark, parameters, metric, machine) VALUES (?1, ?2, ?3, ?4)
     ON CONFLICT (benchmark, parameters, metric, machine) DO NOTHING";
pub const SERIES_ID: &str =
    "SELECT id FROM series WHERE benchmark = ?1 AND parameters = ?2 AND metric = ?3 AND machine = ?4";
pub const ADD_POINT: &str =
    "INSERT INTO points (series, run, n, mean, median, ci_lo, ci_hi, stderr, unit)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";

/// Every series with its machine and how many points it has.
pub const SERIES: &str = "SELECT s.id, s.benchmark, s.parameters, s.metric, m.fingerprint,
        (SELECT COUNT(*) FROM points p WHERE p.series = s.id)
     FROM series s JOIN machines m ON m.id = s.machine
     ORDER BY s.benchmark, s.parameters, s.metric, m.fingerprint";

/// A series' points, oldest commit first (recorded time where there is no commit).
pub const POINTS: &str = "SELECT r.id, r.recorded, r.commit_sha, r.commit_time, r.branch, r.dirty,
        r.plumb_version, p.n, p.mean, p.median, p.ci_lo, p.ci_hi, p.unit, p.stderr
     FROM points p JOIN runs r ON r.id = p.run
     WHERE p.series = ?1
     ORDER BY COALESCE(r.commit_time, r.recorded), r.id";

/// A change found: recorded as a candidate the first time; every time, what the analysis
/// found of it (where its level starts, both levels, p) replaces what it found before.
pub const RECORD_CHANGE: &str = "INSERT INTO changes (series, run, status, first_seen, seen_at_run,
        at_run, before_n, before_mean, before_lo, before_hi,
        after_n, after_mean, after_lo, after_hi, p, method)
     VALUES (?1, ?2, 'candidate', ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
     ON CONFLICT (series, run, method) DO UPDATE SET
        at_run = excluded.at_run, before_n = excluded.before_n,
        before_mean = excluded.before_mean, before_lo = excluded.before_lo,
        before_hi = excluded.before_hi, after_n = excluded.after_n,
        after_mean = excluded.after_mean, after_lo = excluded.after_lo,
        after_hi = excluded.after_hi, p = excluded.p";

/// A change no longer found is forgotten while nobody has spoken of it. The runs still
/// found are a list: SQLite reads it from JSON text, PostgreSQL takes an array.
pub const FORGET_CHANGES_SQLITE: &str =
    "DELETE FROM changes WHERE series = ?1 AND method = ?3 AND status = 'candidate'
     AND run NOT IN (SELECT value FROM json_each(?2))";
#[cfg(feature = "postgres")]
pub const FORGET_CHANGES_PG: &str =
    "DELETE FROM changes WHERE series = ?1 AND method = ?3 AND status = 'candidate' AND run <> ALL(?2)";

/// A series' changes by one method, oldest first, with what the last analysis found of
/// each.
pub const CHANGES: &str = "SELECT c.run, c.status, c.first_seen, c.note, c.seen_at_run,
        c.at_run, c.before_n, c.before_mean, c.before_lo, c.before_hi,
        c.after_n, c.after_mean, c.after_lo, c.after_hi, c.p
     FROM changes c JOIN runs r ON r.id = c.run
     WHERE c.series = ?1 AND c.method = ?2 ORDER BY COALESCE(r.commit_time, r.recorded), r.id";

pub const SET_STATUS: &str =
    "UPDATE changes SET status = ?3, note = COALESCE(?4, note) WHERE series = ?1 AND run = ?2";

pub const ANALYSIS: &str = "SELECT state FROM analysis WHERE series = ?1";
pub const SAVE_ANALYSIS: &str = "INSERT INTO analysis (series, state) VALUES (?1, ?2)
     ON CONFLICT (series) DO UPDATE SET state = excluded.state";

pub const KEEP_CONFIRMATION: &str = "INSERT INTO confirmations (series, run, recorded, base_sha, new_sha, verdict, culprit, document)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id";
pub const CONFIRMATIONS: &str =
    "SELECT recorded, base_sha, new_sha, verdict, culprit, document FROM confirmations
     WHERE series = ?1 AND run = ?2 ORDER BY id";

/// `sql` with PostgreSQL's placeholders: `?N` becomes `$N` (no statement here has a `?`
/// anywhere else).
#[cfg(feature = "postgres")]
pub fn dollars(sql: &str) -> String {
    sql.replace('?', "$")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "postgres")]
    #[test]
    fn postgres_placeholders_are_sqlite_s_numbered_alike() {
        assert_eq!(
            dollars(SET_STATUS),
            "UPDATE changes SET status = $3, note = COALESCE($4, note) WHERE series = $1 AND run = $2"
        );
    }

    #[test]
    fn every_question_mark_is_a_numbered_placeholder() {
        for sql in [
            ADD_MACHINE,
            MACHINE_ID,
            ADD_RUN,
            RUN_BY_DIGEST,
            DOCUMENT,
            ADD_SERIES,
            SERIES_ID,
            ADD_POINT,
            SERIES,
            POINTS,
            RECORD_CHANGE,
            FORGET_CHANGES_SQLITE,
            CHANGES,
            SET_STATUS,
            ANALYSIS,
            SAVE_ANALYSIS,
            KEEP_CONFIRMATION,
            CONFIRMATIONS,
        ] {
            for (i, _) in sql.match_indices('?') {
                assert!(
                    sql[i + 1..].starts_with(|c: char| c.is_ascii_digit()),
                    "{sql}"
                );
            }
        }
    }
}
