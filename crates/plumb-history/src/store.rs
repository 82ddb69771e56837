//! The one interface both homes of the history implement (SQLite, PostgreSQL).
use crate::{ChangeMethod, StoredChange, StoredPoint, StoredSeries};
use crate::{ChangeStatus, Commit, Found, HistoryError, SeriesRecord};

/// What `add` did: the result's run, and whether it was kept now (not before).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Added {
    pub run: i64,
    pub new: bool,
}
use plumb_model::quantity::Timestamp;
use plumb_model::ResultDocument;

/// A change point's re-run: the two revisions' result and what it decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirmation {
    pub series: i64,
    /// The run the change starts at.
    pub run: i64,
    pub recorded: Timestamp,
    pub base_sha: String,
    pub new_sha: String,
    /// `confirmed`, `rejected` or `unknown`.
    pub verdict: String,
    /// The first commit of the new level, when a bisection found it.
    pub culprit: Option<String>,
    /// The result of the re-run of the change's two ends.
    pub document: ResultDocument,
}

pub trait HistoryStore {
    /// Keeps `doc` whole and a point per benchmark and metric it measured, in one
    /// transaction: the store has all of it or none. A result kept before (the same
    /// document) is not kept again: its run is returned as not new.
    fn add(&mut self, doc: &ResultDocument, commit: Option<&Commit>)
        -> Result<Added, HistoryError>;

    /// Ok when results can be kept here, else why not (a read-only disk): asked before a
    /// run is measured, so that it does not end unkept.
    fn writable(&self) -> Result<(), HistoryError> {
        Ok(())
    }

    /// Ok when the store's pages are sound, else what is damaged: asked before a run is
    /// measured (a damaged store would refuse its result only once the run is done).
    fn sound(&self) -> Result<(), HistoryError> {
        Ok(())
    }

    /// The result document kept with run `run`, as it was added.
    fn document(&mut self, run: i64) -> Result<ResultDocument, HistoryError>;

    /// Every series, with how many points it has.
    fn series(&mut self) -> Result<Vec<StoredSeries>, HistoryError>;

    /// A series' points, oldest commit first (recorded time where there is no commit).
    fn points(&mut self, series: i64) -> Result<Vec<StoredPoint>, HistoryError>;

    /// Records that the analysis at `now` found `changes` in `series`, each under the run
    /// it is recorded by, with what was found of it: a change seen before keeps its status
    /// and first sighting and takes the new levels; one not found any more is forgotten
    /// unless a person or a re-run gave it a status. Returns the series' changes, each new
    /// when first found since the newest result was added.
    fn record_changes(
        &mut self,
        series: i64,
        method: ChangeMethod,
        changes: &[(i64, Found)],
        now: Timestamp,
    ) -> Result<Vec<StoredChange>, HistoryError>;

    /// The changes recorded in `series` by the last analysis, oldest first.
    fn changes(
        &mut self,
        series: i64,
        method: ChangeMethod,
    ) -> Result<Vec<StoredChange>, HistoryError>;

    /// The series `wanted` names: an id, a listed name, or a benchmark's wall time.
    fn find_series(&mut self, wanted: &str) -> Result<StoredSeries, HistoryError> {
        let all = self.series()?;
        let by_id = wanted.parse::<i64>().ok();
        let hits: Vec<&StoredSeries> = all
            .iter()
            .filter(|s| Some(s.id) == by_id || s.name() == wanted)
            .collect();
        if let [one] = hits[..] {
            return Ok(one.clone());
        }
        let of_bench: Vec<&StoredSeries> =
            all.iter().filter(|s| s.key.benchmark == wanted).collect();
        let walls: Vec<&&StoredSeries> = of_bench
            .iter()
            .filter(|s| s.key.metric == "wall-time")
            .collect();
        if let [wall] = walls[..] {
            return Ok((*wall).clone());
        }
        let candidates: Vec<String> = hits
            .iter()
            .chain(&of_bench)
            .map(|s| format!("{} ({})", s.id, s.name()))
            .collect();
        Err(if candidates.is_empty() {
            HistoryError::NoSuchSeries(wanted.to_string())
        } else {
            HistoryError::AmbiguousSeries {
                wanted: wanted.to_string(),
                candidates,
            }
        })
    }

    /// One series' record.
    fn record_of(&mut self, series: StoredSeries) -> Result<SeriesRecord, HistoryError> {
        let points = self.points(series.id)?;
        let changes = self.changes(series.id, ChangeMethod::Plumb)?;
        let parity = self.changes(series.id, ChangeMethod::Otava)?;
        Ok(SeriesRecord {
            series,
            points,
            changes,
            parity,
        })
    }

    /// Every series with its points and recorded changes: what the history's views read.
    fn records(&mut self) -> Result<Vec<SeriesRecord>, HistoryError> {
        let all = self.series()?;
        all.into_iter().map(|s| self.record_of(s)).collect()
    }

    /// The state the last analysis of `series` left (its own text), if any.
    fn analysis(&mut self, series: i64) -> Result<Option<String>, HistoryError>;

    /// Keeps `state` as `series`' last analysis.
    fn save_analysis(&mut self, series: i64, state: &str) -> Result<(), HistoryError>;

    /// Keeps the result that re-ran a change point's two revisions (`plumb history
    /// confirm`), beside the change; returns its id.
    fn keep_confirmation(&mut self, c: &Confirmation) -> Result<i64, HistoryError>;

    /// The results kept for the change starting at `run` in `series`, oldest first.
    fn confirmations(&mut self, series: i64, run: i64) -> Result<Vec<Confirmation>, HistoryError>;

    /// Sets the status of the change starting at `run` in `series`, with a note; an error
    /// when no such change was recorded.
    fn set_status(
        &mut self,
        series: i64,
        run: i64,
        status: ChangeStatus,
        note: Option<&str>,
    ) -> Result<(), HistoryError>;
}

/// A confirmation read back: its row's fields and its deflated document.
pub(crate) fn confirmation_from(
    (series, run): (i64, i64),
    (recorded, base_sha, new_sha, verdict, culprit): (&str, String, String, String, Option<String>),
    document: &[u8],
) -> Result<Confirmation, HistoryError> {
    let json = crate::document::decompress(document)?;
    Ok(Confirmation {
        series,
        run,
        recorded: recorded.parse().unwrap_or(Timestamp::EPOCH),
        base_sha,
        new_sha,
        verdict,
        culprit,
        document: ResultDocument::from_json(&json)
            .map_err(|e| HistoryError::Document(e.to_string()))?,
    })
}
