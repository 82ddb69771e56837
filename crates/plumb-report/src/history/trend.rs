//! A series of the store as the trend page draws it: each result with its interval at its
//! commit, each change between its commits with the size its record keeps.
use super::{at, commits_of, date};
use crate::{TrendChange, TrendPoint, TrendSeries};
use plumb_history::SeriesRecord;

pub fn trend_series(h: &SeriesRecord) -> TrendSeries {
    let points = (0..h.points.len())
        .map(|i| TrendPoint {
            at: at(h, i),
            date: date(h, i),
            mean: h.points[i].point.mean,
            interval: h.points[i].point.interval,
        })
        .collect();
    let mut changes: Vec<TrendChange> = h
        .changes
        .iter()
        .filter_map(|c| {
            let (f, index) = (c.found?, h.start_of(c)?);
            Some(TrendChange {
                index,
                commits: commits_of(h, index),
                relative: f.relative(),
                status: c.status.name().to_string(),
            })
        })
        .collect();
    changes.sort_by_key(|c| c.index);
    TrendSeries {
        name: h.series.name(),
        machine: h.series.key.machine.0.clone(),
        unit: h.unit(),
        points,
        changes,
    }
}
