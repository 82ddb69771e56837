//! The history store: every result kept per commit and machine, so a series of one
//! benchmark's metric on one machine can be read back across commits (issue 25).
//!
//! One trait (`HistoryStore`), two homes: SQLite, embedded and the default
//! (`.plumb/history.db`), and PostgreSQL for a team. A point is a benchmark's metric
//! summary from one result; the result document itself is kept beside it, whole, so
//! nothing a later plumb may want is thrown away.

mod backfill;
mod document;
mod error;
mod fingerprint;
pub mod git;
mod keeper;
mod location;
mod lock_holders;
mod noise;
#[cfg(feature = "postgres")]
mod pg;
mod pg_url;
mod points;
mod schema;
mod series;
mod sqlite;
mod statements;
mod store;

pub use backfill::{files_to_add, read_manifest, CommitFrom, Commits};
pub use error::HistoryError;
pub use fingerprint::MachineFingerprint;
pub use keeper::{kept_as, Keeper, Kept, SaveError, Saver};
pub use location::Location;
pub use noise::{key_noise, wall_time_noise, wall_time_noise_in};
#[cfg(feature = "postgres")]
pub use pg::PostgresStore;
pub use pg_url::redacted;
pub use points::{outside_series, points_of};
pub use series::{
    parse_change_id, ChangeMethod, ChangeStatus, Commit, Found, Level, Point, SeriesKey,
    SeriesRecord, StoredChange, StoredPoint, StoredSeries,
};
pub use sqlite::SqliteStore;
pub use store::{Added, Confirmation, HistoryStore};
