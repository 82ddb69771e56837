//! What the history knows of the drift between runs: a series' last level (its runs since
//! its last change point) and their noise (plumb-stats' `last_level_noise`), found by the
//! series' key; and each benchmark's wall time in a result matched to its series on the
//! result's machine, in a store given or found. The store is only read.
use crate::{points_of, HistoryError, HistoryStore, Location, MachineFingerprint};
use crate::{SeriesKey, StoredSeries};
use plumb_model::{Metric, ResultDocument};
use plumb_stats::{last_level_noise, BetweenRunNoise, RunNoise};
use std::path::Path;

/// The drift between runs of the last level of the series `key` names among `series`
/// (the store's), when there is one with enough runs.
pub fn key_noise(
    store: &mut dyn HistoryStore,
    series: &[StoredSeries],
    key: &SeriesKey,
) -> Result<Option<BetweenRunNoise>, HistoryError> {
    let Some(record) = series.iter().find(|s| &s.key == key) else {
        return Ok(None);
    };
    let points = store.points(record.id)?;
    let means: Vec<f64> = points.iter().map(|p| p.point.mean).collect();
    let errors: Vec<Option<f64>> = points.iter().map(|p| p.point.stderr).collect();
    let labels: Vec<String> = points.iter().map(|p| p.label()).collect();
    Ok(last_level_noise(&means, &errors, &labels))
}

/// Each benchmark of `doc` whose wall time has a series on `doc`'s machine that measured
/// its drift: its index, its standard error in `doc`, and that drift.
pub fn wall_time_noise(
    doc: &ResultDocument,
    store: &mut dyn HistoryStore,
) -> Result<Vec<RunNoise>, HistoryError> {
    let wall = Metric::WallTime.to_string();
    let series = store.series()?;
    let mut found = Vec::new();
    let points = points_of(doc, &MachineFingerprint::of(doc));
    for (key, point) in points.into_iter().filter(|(key, _)| key.metric == wall) {
        let index = (doc.benchmarks.iter())
            .position(|b| b.name == key.benchmark && b.parameters == key.parameters);
        let (Some(benchmark), Some(stderr)) = (index, point.stderr) else {
            continue;
        };
        if let Some(noise) = key_noise(store, &series, &key)? {
            found.push(RunNoise {
                benchmark,
                stderr,
                noise,
            });
        }
    }
    Ok(found)
}

/// `wall_time_noise` in the store `given` names (else $PLUMB_HISTORY, else the default
/// under the git top level of `dir`) where one exists; none is made, and none is nothing.
pub fn wall_time_noise_in(
    doc: &ResultDocument,
    given: Option<&str>,
    dir: &Path,
) -> Result<Vec<RunNoise>, HistoryError> {
    match Location::existing(given, dir)? {
        Some(location) => wall_time_noise(doc, location.open()?.as_mut()),
        None => Ok(Vec::new()),
    }
}
