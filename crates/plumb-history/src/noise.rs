//! What the history knows of the drift between runs: a series' last level (its runs since
//! its last change point) and their noise (plumb-stats' `last_level_noise`), and each
//! benchmark's wall time in a result matched to its series on the result's machine. The
//! store is only read.
use crate::{points_of, HistoryError, HistoryStore, MachineFingerprint};
use plumb_model::{Metric, ResultDocument};
use plumb_stats::{last_level_noise, BetweenRunNoise, RunNoise};

/// The drift between runs of series `id`'s last level, when it has enough runs.
pub fn series_noise(
    store: &mut dyn HistoryStore,
    id: i64,
) -> Result<Option<BetweenRunNoise>, HistoryError> {
    let points = store.points(id)?;
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
    for (key, point) in points_of(doc, &MachineFingerprint::of(doc)) {
        let Some(record) = series.iter().find(|s| s.key == key && key.metric == wall) else {
            continue;
        };
        let index = (doc.benchmarks.iter())
            .position(|b| b.name == key.benchmark && b.parameters == key.parameters);
        let (Some(benchmark), Some(stderr)) = (index, point.stderr) else {
            continue;
        };
        if let Some(noise) = series_noise(store, record.id)? {
            found.push(RunNoise {
                benchmark,
                stderr,
                noise,
            });
        }
    }
    Ok(found)
}
