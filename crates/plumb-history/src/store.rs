//! The one interface both homes of the history implement (SQLite, PostgreSQL).
use crate::{Commit, HistoryError, StoredPoint, StoredSeries};
use plumb_model::ResultDocument;

pub trait HistoryStore {
    /// Keeps `doc` whole and a point per benchmark and metric it measured; returns the
    /// run's id. One transaction: the store has all of it or none.
    fn add(&mut self, doc: &ResultDocument, commit: Option<&Commit>) -> Result<i64, HistoryError>;

    /// Every series, with how many points it has.
    fn series(&self) -> Result<Vec<StoredSeries>, HistoryError>;

    /// A series' points, oldest commit first (recorded time where there is no commit).
    fn points(&self, series: i64) -> Result<Vec<StoredPoint>, HistoryError>;
}
