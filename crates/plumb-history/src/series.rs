//! What the store keeps: a series is one benchmark's metric on one machine; a point is
//! its summary from one result, at one commit.
use crate::MachineFingerprint;
use plumb_model::quantity::Timestamp;
use std::collections::BTreeMap;

/// Which series a point belongs to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SeriesKey {
    pub benchmark: String,
    /// The benchmark's parameters (`-P`, `-L`), by name.
    pub parameters: BTreeMap<String, String>,
    /// The metric's name as results write it (`wall-time`, `instructions`…).
    pub metric: String,
    pub machine: MachineFingerprint,
}

impl SeriesKey {
    /// The parameters as the store keeps them: a BTreeMap serialises in key order, so one
    /// set of parameters has one text.
    pub fn parameters_text(&self) -> String {
        serde_json::to_string(&self.parameters).expect("a map of strings serialises")
    }
}

/// The commit a result was measured at, when it was taken in a git repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    pub sha: String,
    pub time: Timestamp,
    pub branch: Option<String>,
    /// The working tree had changes not in the commit.
    pub dirty: bool,
}

/// A series' summary from one result, in the metric's unit per operation.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub n: u64,
    pub mean: f64,
    pub median: f64,
    /// The mean's interval at the result's confidence, when it has one.
    pub interval: Option<(f64, f64)>,
    /// The mean's standard error (from its interval, its level and n), when it has one.
    pub stderr: Option<f64>,
    pub unit: plumb_model::Unit,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StoredSeries {
    pub id: i64,
    pub key: SeriesKey,
    pub points: u64,
}

impl StoredSeries {
    /// The series' name as people say it: benchmark, parameters, metric.
    pub fn name(&self) -> String {
        let k = &self.key;
        let mut n = k.benchmark.clone();
        if !k.parameters.is_empty() {
            let p: Vec<String> = k
                .parameters
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            n.push_str(&format!(" ({})", p.join(", ")));
        }
        n.push_str(&format!(" · {}", k.metric));
        n
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct StoredPoint {
    pub run: i64,
    pub recorded: Timestamp,
    pub commit: Option<Commit>,
    pub plumb_version: String,
    pub point: Point,
}

impl StoredPoint {
    /// Where the point stands in its series, as every view names it: its commit (short),
    /// or `run N` for a result kept without one.
    pub fn label(&self) -> String {
        match &self.commit {
            Some(c) => crate::git::short(&c.sha).to_string(),
            None => format!("run {}", self.run),
        }
    }
}

/// Where a change point stands: found by the analysis, confirmed or rejected by re-running
/// the two revisions, or acknowledged by a person (an intended change, not to alarm again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeStatus {
    Candidate,
    Confirmed,
    Rejected,
    Acknowledged,
}

impl ChangeStatus {
    pub const ALL: [ChangeStatus; 4] = [
        ChangeStatus::Candidate,
        ChangeStatus::Confirmed,
        ChangeStatus::Rejected,
        ChangeStatus::Acknowledged,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ChangeStatus::Candidate => "candidate",
            ChangeStatus::Confirmed => "confirmed",
            ChangeStatus::Rejected => "rejected",
            ChangeStatus::Acknowledged => "acknowledged",
        }
    }

    pub fn from_name(name: &str) -> Option<ChangeStatus> {
        ChangeStatus::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// How a change point was found: plumb's method (what views, gates and confirmations
/// read) or Otava's (`history changes --otava-parity`), kept beside it to compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeMethod {
    Plumb,
    Otava,
}

impl ChangeMethod {
    pub fn name(self) -> &'static str {
        match self {
            ChangeMethod::Plumb => "plumb",
            ChangeMethod::Otava => "otava",
        }
    }
}

/// A change as `plumb history changes` names it, `SERIES@RUN` (e.g. `3@41`): the series
/// and the run its level starts at.
pub fn parse_change_id(text: &str) -> Result<(i64, i64), crate::HistoryError> {
    text.split_once('@')
        .and_then(|(s, r)| Some((s.parse().ok()?, r.parse().ok()?)))
        .ok_or_else(|| crate::HistoryError::NotAChange(text.to_string()))
}

/// A level either side of a change: its points, mean and (plumb's method) interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Level {
    pub n: u64,
    pub mean: f64,
    pub interval: Option<(f64, f64)>,
}

/// What the last analysis found of a change: the run its new level starts at (the change
/// may be recorded under a run up to two points away, so its status stays), both levels
/// and the p-value. Kept with the change, so every view of it (the terminal, Markdown,
/// the export, the report page) reads these numbers and none recomputes them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Found {
    pub at_run: i64,
    pub before: Level,
    pub after: Level,
    pub p: f64,
}

impl Found {
    /// The change's size: after / before − 1.
    pub fn relative(&self) -> f64 {
        self.after.mean / self.before.mean - 1.0
    }

    /// As the `changes` table keeps it, in `statements::RECORD_CHANGE`'s order from
    /// `at_run`: where the level starts, each level's n, mean, low and high, then p.
    pub(crate) fn columns(&self) -> (i64, LevelColumns, LevelColumns, f64) {
        (
            self.at_run,
            self.before.columns(),
            self.after.columns(),
            self.p,
        )
    }

    /// Read back from the table's columns; none when a store of schema 2 recorded the
    /// change and no analysis has found it since.
    pub(crate) fn from_columns(
        at_run: Option<i64>,
        before: OptionalLevel,
        after: OptionalLevel,
        p: Option<f64>,
    ) -> Option<Found> {
        Some(Found {
            at_run: at_run?,
            before: Level::from_columns(before)?,
            after: Level::from_columns(after)?,
            p: p?,
        })
    }
}

/// A level's columns: n, mean, the interval's low and high.
pub(crate) type LevelColumns = (i64, f64, Option<f64>, Option<f64>);
/// A point's interval as read: its lower end cut at zero. What a point holds (a time,
/// bytes, a count) is never negative; a Student interval of a skewed few runs can reach
/// below zero, and a time of -1.9 ns is not a figure to print.
pub(crate) fn interval_read(lo: Option<f64>, hi: Option<f64>) -> Option<(f64, f64)> {
    lo.zip(hi).map(|(lo, hi)| (lo.max(0.0), hi))
}

/// A level's columns as read, each possibly empty.
pub(crate) type OptionalLevel = (Option<i64>, Option<f64>, Option<f64>, Option<f64>);

impl Level {
    fn columns(&self) -> LevelColumns {
        let (lo, hi) = self.interval.unzip();
        (self.n as i64, self.mean, lo, hi)
    }

    fn from_columns((n, mean, lo, hi): OptionalLevel) -> Option<Level> {
        Some(Level {
            n: n? as u64,
            mean: mean?,
            interval: lo.zip(hi),
        })
    }
}

/// A change point as the store remembers it: the first run of the new level in a series.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredChange {
    pub series: i64,
    pub run: i64,
    pub method: ChangeMethod,
    pub status: ChangeStatus,
    pub first_seen: Timestamp,
    pub note: Option<String>,
    /// First found since the newest result was added (so every analysis until the next
    /// result says it is new: a CI job may summarise and gate in two steps).
    pub new: bool,
    /// What the last analysis found (none for a change recorded by a store of schema 2
    /// and not found again since).
    pub found: Option<Found>,
}

impl StoredChange {
    /// The changes found (each under the run it is recorded by) as the record `before`
    /// has them, nothing written: a change recorded before keeps its status, the others
    /// are candidates, none new (what a read-only store, or an analysis that does not
    /// record, says).
    pub fn as_recorded(
        series: i64,
        method: ChangeMethod,
        found: &[(i64, Found)],
        before: &[StoredChange],
        now: Timestamp,
    ) -> Vec<StoredChange> {
        found
            .iter()
            .map(|&(run, f)| match before.iter().find(|b| b.run == run) {
                Some(b) => StoredChange {
                    new: false,
                    found: Some(f),
                    ..b.clone()
                },
                None => StoredChange {
                    series,
                    run,
                    method,
                    status: ChangeStatus::Candidate,
                    first_seen: now,
                    note: None,
                    new: false,
                    found: Some(f),
                },
            })
            .collect()
    }
}

/// One series as the store keeps it: its points, oldest first, and its recorded changes
/// (an analysis' record: the changes it found, each with what it found of it) by plumb's
/// method, and those Otava's method found (`parity`: exported, never gated on).
#[derive(Debug, Clone)]
pub struct SeriesRecord {
    pub series: StoredSeries,
    pub points: Vec<StoredPoint>,
    pub changes: Vec<StoredChange>,
    pub parity: Vec<StoredChange>,
}

impl SeriesRecord {
    /// The unit its values are in (nanoseconds for an empty series).
    pub fn unit(&self) -> plumb_model::Unit {
        self.points
            .first()
            .map_or(plumb_model::Unit::Nanoseconds, |p| p.point.unit)
    }

    /// Where change `c`'s new level starts among the points, as the last analysis found
    /// it (the run it is recorded under, for a change no analysis has found since a
    /// store of schema 2 recorded it); never the first point.
    pub fn start_of(&self, c: &StoredChange) -> Option<usize> {
        let at = c.found.map_or(c.run, |f| f.at_run);
        self.points
            .iter()
            .position(|p| p.run == at)
            .filter(|&i| i > 0)
    }

    /// Where change `c`'s new level starts and what the last analysis found of it.
    pub fn found(&self, c: &StoredChange) -> Option<(usize, Found)> {
        Some((self.start_of(c)?, c.found?))
    }
}
