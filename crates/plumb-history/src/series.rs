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
    pub unit: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StoredSeries {
    pub id: i64,
    pub key: SeriesKey,
    pub points: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StoredPoint {
    pub run: i64,
    pub recorded: Timestamp,
    pub commit: Option<Commit>,
    pub plumb_version: String,
    pub point: Point,
}
