//! The change points of every series in the store, by plumb's method (α held across every
//! series, each series resumed from its last analysis so a new point re-searches only the
//! windows it reaches) or Otava's (`--otava-parity`), each recorded under its method
//! with its status: Otava's beside plumb's, never in place of them.
use crate::ChangesError;
use plumb_history::{
    ChangeMethod, ChangeStatus, Found, HistoryStore, Level, SeriesRecord, StoredChange,
    StoredPoint, StoredSeries,
};
use plumb_model::quantity::Timestamp;
use plumb_stats::{change_points_after, merge_across, otava_change_points, ChangeParams};
use plumb_stats::{OtavaParams, Series, SplitState};
use serde::{Deserialize, Serialize};

/// How change points are found.
#[derive(Debug, Clone, Copy)]
pub enum Method {
    Plumb(ChangeParams),
    Otava(OtavaParams),
}

impl Method {
    /// The method asked: Otava's (`otava`, p < α, 0.001 unless given) or plumb's (α
    /// across all series, 0.005 unless given), in windows of `window` points, changes
    /// below `min_magnitude` ignored; each checked.
    pub fn asked(
        otava: bool,
        alpha: Option<f64>,
        window: usize,
        min_magnitude: f64,
    ) -> Result<Method, ChangesError> {
        let alpha = alpha.unwrap_or(if otava { 0.001 } else { 0.005 });
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(ChangesError::Parameter(format!(
                "--alpha {alpha}: must be between 0 and 1"
            )));
        }
        if window < 6 {
            return Err(ChangesError::Parameter(format!(
                "--window {window}: must be at least 6 points"
            )));
        }
        if !(min_magnitude >= 0.0 && min_magnitude.is_finite()) {
            return Err(ChangesError::Parameter(format!(
                "--min-magnitude {min_magnitude}: must be 0 or more"
            )));
        }
        Ok(if otava {
            Method::Otava(OtavaParams {
                window,
                max_p: alpha,
                min_magnitude,
            })
        } else {
            Method::Plumb(ChangeParams {
                window,
                alpha,
                min_magnitude,
                ..ChangeParams::default()
            })
        })
    }
}

/// What the analysis was, in a line.
impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Method::Plumb(p) => write!(
                f,
                "plumb's method: α = {} across all series, corrected for the search; window {}",
                p.alpha, p.window
            ),
            Method::Otava(p) => write!(
                f,
                "Otava 0.8.0's method (parity): p < {}, window {}, magnitude > {}",
                p.max_p, p.window, p.min_magnitude
            ),
        }
    }
}

/// The CI gate of `plumb history changes --fail-on new-change`: a new change, not
/// acknowledged or rejected, to a level slower by more than `sesoi`.
pub fn fails_gate(c: &StoredChange, sesoi: f64) -> bool {
    c.new
        && matches!(c.status, ChangeStatus::Candidate | ChangeStatus::Confirmed)
        && c.found.is_some_and(|f| f.relative() > sesoi)
}

/// A change point as the search found it: the index of the new level's first point,
/// both levels, its p. Recorded as the store's `Found` (the run at that index instead
/// of the index).
#[derive(Debug, Clone, Copy)]
struct Split {
    index: usize,
    before: Level,
    after: Level,
    p: f64,
}

/// The split state kept per series, with what identifies the points it analysed: points
/// are only ever added, so the prefix is unchanged exactly when its last run is the same.
#[derive(Serialize, Deserialize)]
struct Kept {
    last_run: i64,
    /// The standard error a point without one was given (the median of the others): the
    /// windows searched with one value are not reused with another.
    filled: Option<f64>,
    state: SplitState,
}

/// Every series' change points, found and recorded.
pub fn analyse(
    store: &mut dyn HistoryStore,
    method: Method,
) -> Result<Vec<SeriesRecord>, ChangesError> {
    let mut data = Vec::new();
    for series in store.series()? {
        let points = store.points(series.id)?;
        data.push(Loaded::of(series, points));
    }
    let found: Vec<Vec<Split>> = match method {
        Method::Otava(params) => data
            .iter()
            .map(|d| otava_found(&d.values, params))
            .collect(),
        Method::Plumb(params) => {
            let mut states = Vec::new();
            for d in &data {
                let state = resumed(
                    store,
                    d.series.id,
                    &d.points,
                    d.as_series(),
                    d.filled,
                    params,
                )?;
                states.push(state);
            }
            let items: Vec<(Series, &SplitState)> =
                data.iter().map(Loaded::as_series).zip(&states).collect();
            merge_across(&items, params)
                .into_iter()
                .map(|cs| cs.iter().map(plumb_found).collect())
                .collect()
        }
    };
    let now = Timestamp::now();
    let recorded_as = match method {
        Method::Plumb(_) => ChangeMethod::Plumb,
        Method::Otava(_) => ChangeMethod::Otava,
    };
    let mut out = Vec::new();
    for (Loaded { series, points, .. }, changes) in data.into_iter().zip(found) {
        let before = store.changes(series.id, recorded_as)?;
        let runs = identities(&changes, &points, &before);
        let found: Vec<(i64, Found)> = changes
            .iter()
            .zip(&runs)
            .map(|(c, &run)| {
                let f = Found {
                    at_run: points[c.index].run,
                    before: c.before,
                    after: c.after,
                    p: c.p,
                };
                (run, f)
            })
            .collect();
        let stored = store.record_changes(series.id, recorded_as, &found, now)?;
        let changes = stored
            .into_iter()
            .filter(|s| runs.contains(&s.run))
            .collect();
        out.push(SeriesRecord {
            series,
            points,
            changes,
            parity: Vec::new(),
        });
    }
    Ok(out)
}

/// The points a change moves by from one analysis to the next, and still is the change
/// recorded before (a new result can shift where a level seems to start).
const SAME_CHANGE: usize = 2;

/// The run each change is recorded under: the run of a change recorded before within
/// `SAME_CHANGE` points of it (so its status, and whether it is new, stay), else its own.
fn identities(changes: &[Split], points: &[StoredPoint], before: &[StoredChange]) -> Vec<i64> {
    let index_of = |run: i64| points.iter().position(|p| p.run == run);
    // Every (change, recorded) pair close enough, nearest first, each side taken once.
    let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
    for (k, c) in changes.iter().enumerate() {
        for (r, b) in before.iter().enumerate() {
            if let Some(d) = index_of(b.run).map(|i| i.abs_diff(c.index)) {
                if d <= SAME_CHANGE {
                    pairs.push((d, k, r));
                }
            }
        }
    }
    pairs.sort_unstable();
    let mut runs: Vec<Option<i64>> = vec![None; changes.len()];
    let mut used = vec![false; before.len()];
    for (_, k, r) in pairs {
        if runs[k].is_none() && !used[r] {
            runs[k] = Some(before[r].run);
            used[r] = true;
        }
    }
    runs.iter()
        .zip(changes)
        .map(|(run, c)| run.unwrap_or(points[c.index].run))
        .collect()
}

/// The split phase of `series`, resumed from its kept state when that analysed a prefix of
/// these points with these parameters, and kept again.
fn resumed(
    store: &mut dyn HistoryStore,
    id: i64,
    points: &[StoredPoint],
    series: Series,
    filled: Option<f64>,
    params: ChangeParams,
) -> Result<SplitState, ChangesError> {
    let kept: Option<Kept> = store
        .analysis(id)?
        .and_then(|text| serde_json::from_str(&text).ok());
    let previous = kept
        .filter(|k| {
            let len = k.state.length;
            let same_points = len == 0 || points.get(len - 1).is_some_and(|p| p.run == k.last_run);
            same_points && k.filled == filled
        })
        .map(|k| k.state)
        .unwrap_or_default();
    let (_, state) = change_points_after(series, params, &previous)?;
    if state != previous {
        let last_run = points.last().map_or(0, |p| p.run);
        let text = serde_json::to_string(&Kept {
            last_run,
            filled,
            state: state.clone(),
        })
        .expect("a state serialises");
        store.save_analysis(id, &text)?;
    }
    Ok(state)
}

fn plumb_found(c: &plumb_stats::Change) -> Split {
    let side = |l: &plumb_stats::Level| Level {
        n: l.n as u64,
        mean: l.mean,
        interval: Some((l.interval.lo, l.interval.hi)),
    };
    Split {
        index: c.index,
        before: side(&c.test.before),
        after: side(&c.test.after),
        p: c.p(),
    }
}

fn otava_found(values: &[f64], params: OtavaParams) -> Vec<Split> {
    let cps = otava_change_points(values, params);
    let bounds: Vec<usize> = std::iter::once(0)
        .chain(cps.iter().map(|c| c.index))
        .chain(std::iter::once(values.len()))
        .collect();
    cps.iter()
        .enumerate()
        .map(|(k, c)| Split {
            index: c.index,
            before: Level {
                n: (bounds[k + 1] - bounds[k]) as u64,
                mean: c.mean_before,
                interval: None,
            },
            after: Level {
                n: (bounds[k + 2] - bounds[k + 1]) as u64,
                mean: c.mean_after,
                interval: None,
            },
            p: c.p,
        })
        .collect()
}

/// A series read from the store, with the values its analysis reads: the points' means,
/// and their standard errors where every point has one or the missing ones can take the
/// median of the others (a point of one run has none), with the value given to those
/// (`filled`; None when none was missing).
struct Loaded {
    series: StoredSeries,
    points: Vec<StoredPoint>,
    values: Vec<f64>,
    errors: Option<Vec<f64>>,
    filled: Option<f64>,
}

impl Loaded {
    fn of(series: StoredSeries, points: Vec<StoredPoint>) -> Loaded {
        let values = points.iter().map(|p| p.point.mean).collect();
        let mut known: Vec<f64> = points.iter().filter_map(|p| p.point.stderr).collect();
        known.sort_by(f64::total_cmp);
        let median = known.get(known.len() / 2).copied();
        let errors = median.map(|m| points.iter().map(|p| p.point.stderr.unwrap_or(m)).collect());
        let filled = median.filter(|_| points.iter().any(|p| p.point.stderr.is_none()));
        Loaded {
            series,
            points,
            values,
            errors,
            filled,
        }
    }

    fn as_series(&self) -> Series<'_> {
        Series {
            values: &self.values,
            errors: self.errors.as_deref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_history::{ChangeStatus, Point};

    fn points(n: i64) -> Vec<StoredPoint> {
        (1..=n)
            .map(|run| StoredPoint {
                run,
                recorded: Timestamp::EPOCH,
                commit: None,
                plumb_version: "t".into(),
                point: Point {
                    n: 1,
                    mean: 1.0,
                    median: 1.0,
                    interval: None,
                    stderr: None,
                    unit: plumb_model::Unit::Nanoseconds,
                },
            })
            .collect()
    }

    fn found(index: usize) -> Split {
        let side = Level {
            n: 1,
            mean: 1.0,
            interval: None,
        };
        Split {
            index,
            before: side,
            after: side,
            p: 0.0,
        }
    }

    fn recorded(run: i64, status: ChangeStatus) -> StoredChange {
        StoredChange {
            series: 1,
            run,
            method: ChangeMethod::Plumb,
            status,
            first_seen: Timestamp::EPOCH,
            note: None,
            new: false,
            found: None,
        }
    }

    /// A change that moved by a point or two is the one recorded (its status stays); one
    /// that moved further, or a second change near the first, is its own.
    #[test]
    fn a_change_that_moves_a_little_keeps_its_record() {
        let p = points(40);
        let before = [recorded(21, ChangeStatus::Acknowledged)];
        // Index 21 is run 22: one point after the recorded run 21.
        assert_eq!(identities(&[found(21)], &p, &before), [21]);
        assert_eq!(identities(&[found(24)], &p, &before), [25]);
        // Two changes near it: the nearer takes the record.
        assert_eq!(identities(&[found(19), found(20)], &p, &before), [20, 21]);
        // The exact run wins over a near one.
        let two = [
            recorded(20, ChangeStatus::Candidate),
            recorded(21, ChangeStatus::Rejected),
        ];
        assert_eq!(identities(&[found(20)], &p, &two), [21]);
    }
}
