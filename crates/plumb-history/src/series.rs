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

/// A change point as the store remembers it: the first run of the new level in a series.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredChange {
    pub series: i64,
    pub run: i64,
    pub status: ChangeStatus,
    pub first_seen: Timestamp,
    pub note: Option<String>,
    /// First found since the newest result was added (so every analysis until the next
    /// result says it is new: a CI job may summarise and gate in two steps).
    pub new: bool,
}

impl StoredChange {
    /// The changes starting at `runs` as the record `before` has them, nothing written: a
    /// change recorded before keeps its status, the others are candidates, none new (what a
    /// read-only store, or an analysis that does not record, says).
    pub fn as_recorded(
        series: i64,
        runs: &[i64],
        before: &[StoredChange],
        now: Timestamp,
    ) -> Vec<StoredChange> {
        runs.iter()
            .map(|&run| match before.iter().find(|b| b.run == run) {
                Some(b) => StoredChange {
                    new: false,
                    ..b.clone()
                },
                None => StoredChange {
                    series,
                    run,
                    status: ChangeStatus::Candidate,
                    first_seen: now,
                    note: None,
                    new: false,
                },
            })
            .collect()
    }
}
