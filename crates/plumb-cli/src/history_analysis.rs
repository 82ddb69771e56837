//! The change points of every series in the store, by plumb's method (α held across every
//! series, each series resumed from its last analysis so a new point re-searches only the
//! windows it reaches) or Otava's (`--otava-parity`), recorded with their status.
use crate::exit::CliError;
use plumb_history::{HistoryStore, StoredChange, StoredPoint, StoredSeries};
use plumb_model::quantity::Timestamp;
use plumb_stats::{change_points_after, merge_across, otava_change_points, ChangeParams};
use plumb_stats::{Interval, OtavaParams, Series, SplitState};
use serde::{Deserialize, Serialize};

/// How change points are found.
#[derive(Debug, Clone, Copy)]
pub enum Method {
    Plumb(ChangeParams),
    Otava(OtavaParams),
}

/// A level either side of a change: its points, mean and (plumb's method) interval.
#[derive(Debug, Clone, Copy)]
pub struct Side {
    pub n: usize,
    pub mean: f64,
    pub interval: Option<Interval>,
}

/// A change point found: the index of the new level's first point, both levels, its p.
#[derive(Debug, Clone, Copy)]
pub struct Found {
    pub index: usize,
    pub before: Side,
    pub after: Side,
    pub p: f64,
}

impl Found {
    /// after / before − 1.
    pub fn relative(&self) -> f64 {
        self.after.mean / self.before.mean - 1.0
    }
}

/// One series with its points and the changes found in it.
pub struct Analysed {
    pub series: StoredSeries,
    pub points: Vec<StoredPoint>,
    pub changes: Vec<(Found, StoredChange)>,
}

/// The split state kept per series, with what identifies the points it analysed: points
/// are only ever added, so the prefix is unchanged exactly when its last run is the same.
#[derive(Serialize, Deserialize)]
struct Kept {
    last_run: i64,
    state: SplitState,
}

/// Every series' change points, found and recorded.
pub fn analyse(store: &mut dyn HistoryStore, method: Method) -> Result<Vec<Analysed>, CliError> {
    let mut data = Vec::new();
    for series in store.series()? {
        let points = store.points(series.id)?;
        let (values, errors) = values_of(&points);
        data.push((series, points, values, errors));
    }
    let found: Vec<Vec<Found>> = match method {
        Method::Otava(params) => data
            .iter()
            .map(|(_, _, v, _)| otava_found(v, params))
            .collect(),
        Method::Plumb(params) => {
            let mut states = Vec::new();
            for (series, points, v, e) in &data {
                let s = Series {
                    values: v,
                    errors: e.as_deref(),
                };
                states.push(resumed(store, series.id, points, s, params)?);
            }
            let items: Vec<(Series, &SplitState)> = data
                .iter()
                .zip(&states)
                .map(|((_, _, v, e), st)| {
                    let s = Series {
                        values: v,
                        errors: e.as_deref(),
                    };
                    (s, st)
                })
                .collect();
            merge_across(&items, params)
                .into_iter()
                .map(|cs| cs.iter().map(plumb_found).collect())
                .collect()
        }
    };
    let now = Timestamp::now();
    let mut out = Vec::new();
    for ((series, points, _, _), changes) in data.into_iter().zip(found) {
        let runs: Vec<i64> = changes.iter().map(|c| points[c.index].run).collect();
        let stored = store.record_changes(series.id, &runs, now)?;
        let changes = changes
            .into_iter()
            .filter_map(|c| {
                let run = points[c.index].run;
                stored.iter().find(|s| s.run == run).map(|s| (c, s.clone()))
            })
            .collect();
        out.push(Analysed {
            series,
            points,
            changes,
        });
    }
    Ok(out)
}

/// The split phase of `series`, resumed from its kept state when that analysed a prefix of
/// these points with these parameters, and kept again.
fn resumed(
    store: &mut dyn HistoryStore,
    id: i64,
    points: &[StoredPoint],
    series: Series,
    params: ChangeParams,
) -> Result<SplitState, CliError> {
    let kept: Option<Kept> = store
        .analysis(id)?
        .and_then(|text| serde_json::from_str(&text).ok());
    let previous = kept
        .filter(|k| {
            let len = k.state.length;
            len == 0 || points.get(len - 1).is_some_and(|p| p.run == k.last_run)
        })
        .map(|k| k.state)
        .unwrap_or_default();
    let (_, state) = change_points_after(series, params, &previous)?;
    if state != previous {
        let last_run = points.last().map_or(0, |p| p.run);
        let text = serde_json::to_string(&Kept {
            last_run,
            state: state.clone(),
        })
        .expect("a state serialises");
        store.save_analysis(id, &text)?;
    }
    Ok(state)
}

fn plumb_found(c: &plumb_stats::Change) -> Found {
    let side = |l: &plumb_stats::Level| Side {
        n: l.n,
        mean: l.mean,
        interval: Some(l.interval),
    };
    Found {
        index: c.index,
        before: side(&c.test.before),
        after: side(&c.test.after),
        p: c.p(),
    }
}

fn otava_found(values: &[f64], params: OtavaParams) -> Vec<Found> {
    let cps = otava_change_points(values, params);
    let bounds: Vec<usize> = std::iter::once(0)
        .chain(cps.iter().map(|c| c.index))
        .chain(std::iter::once(values.len()))
        .collect();
    cps.iter()
        .enumerate()
        .map(|(k, c)| Found {
            index: c.index,
            before: Side {
                n: bounds[k + 1] - bounds[k],
                mean: c.mean_before,
                interval: None,
            },
            after: Side {
                n: bounds[k + 2] - bounds[k + 1],
                mean: c.mean_after,
                interval: None,
            },
            p: c.p,
        })
        .collect()
}

/// The series' means, and their standard errors where every point has one or the missing
/// ones can take the median of the others (a point of one run has none).
fn values_of(points: &[StoredPoint]) -> (Vec<f64>, Option<Vec<f64>>) {
    let values = points.iter().map(|p| p.point.mean).collect();
    let mut known: Vec<f64> = points.iter().filter_map(|p| p.point.stderr).collect();
    if known.is_empty() {
        return (values, None);
    }
    known.sort_by(f64::total_cmp);
    let median = known[known.len() / 2];
    let errors = points
        .iter()
        .map(|p| p.point.stderr.unwrap_or(median))
        .collect();
    (values, Some(errors))
}
