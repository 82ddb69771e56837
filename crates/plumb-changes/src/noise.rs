//! The noise between runs, from the history of each benchmark on the run's machine where
//! there is one (its last level: the runs since its last change point). `plumb compare`
//! of two separate runs widens the ratio's interval by it, and says so where there is none
//! (or no store); `plumb run` states each mean's interval between runs beside its own. The
//! store is only read.
use crate::ChangesError;
use plumb_analysis::{
    across_runs, between_run_noise, machine_findings, unmeasured, widened, BetweenRunNoise,
};
use plumb_history::{points_of, HistoryStore, Location, MachineFingerprint, StoredPoint};
use plumb_model::{ComparisonDocument, Metric, ResultDocument};
use plumb_stats::{change_points, ChangeParams, Series};
use std::path::Path;

/// Widens each comparison that the history in `store` measures, and notes the others.
pub fn widen_by_history(
    cmp: &mut ComparisonDocument,
    base: &ResultDocument,
    new: &ResultDocument,
    store: Option<&mut dyn HistoryStore>,
) -> Result<(), ChangesError> {
    let machine = machine_findings(base, new);
    let Some(store) = store else {
        cmp.notes.push(unmeasured(&cmp.comparisons, machine));
        return Ok(());
    };
    let fingerprint = MachineFingerprint::of(base);
    let series = store.series()?;
    let mut measured = 0;
    for c in cmp.comparisons.iter_mut() {
        let Some(b) = base.benchmark(&c.baseline) else {
            continue;
        };
        let key = series.iter().find(|s| {
            s.key.benchmark == b.name
                && s.key.parameters == b.parameters
                && s.key.metric == c.metric.to_string()
                && s.key.machine == fingerprint
        });
        let Some(key) = key else { continue };
        let points = store.points(key.id)?;
        if let Some(noise) = last_level_noise(&points) {
            let note = widened(c, &b.name, &noise, machine.clone());
            cmp.notes.push(note);
            measured += 1;
        }
    }
    if measured == 0 {
        cmp.notes.push(unmeasured(&cmp.comparisons, machine));
    }
    Ok(())
}

/// Each benchmark's wall time in `doc` given the interval that holds the next run, where
/// its history on this machine measured the drift between runs; a run those runs do not
/// predict gets the finding that says so.
pub fn between_runs_by_history(
    doc: &mut ResultDocument,
    store: &mut dyn HistoryStore,
) -> Result<(), ChangesError> {
    let level = doc.settings.confidence.get();
    let fingerprint = MachineFingerprint::of(doc);
    let series = store.series()?;
    let wall = Metric::WallTime.to_string();
    for (key, point) in points_of(doc, &fingerprint) {
        let Some(record) = series.iter().find(|s| s.key == key && key.metric == wall) else {
            continue;
        };
        let (Some(se), Some(noise)) = (point.stderr, last_level_noise(&store.points(record.id)?))
        else {
            continue;
        };
        let b = doc
            .benchmarks
            .iter_mut()
            .find(|b| b.name == key.benchmark && b.parameters == key.parameters);
        let Some(b) = b else { continue };
        let Some(stats) = b.stats.get_mut(&Metric::WallTime) else {
            continue;
        };
        if let Some(unlike) = across_runs(&b.name, stats, se, &noise, level) {
            b.diagnostics.push(unlike);
        }
    }
    Ok(())
}

/// `between_runs_by_history` on the store `given` names (else $PLUMB_HISTORY, else the
/// default under the git top level of `dir`) where one exists; none is made.
pub fn between_runs_in_history(
    doc: &mut ResultDocument,
    given: Option<&str>,
    dir: &Path,
) -> Result<(), ChangesError> {
    match Location::existing(given, dir)? {
        Some(location) => between_runs_by_history(doc, location.open()?.as_mut()),
        None => Ok(()),
    }
}

/// The between-run noise of the runs since the series' last change point.
fn last_level_noise(points: &[StoredPoint]) -> Option<BetweenRunNoise> {
    let means: Vec<f64> = points.iter().map(|p| p.point.mean).collect();
    let (changes, _) = change_points(
        Series {
            values: &means,
            errors: None,
        },
        ChangeParams::default(),
    )
    .ok()?;
    let from = changes.last().map_or(0, |c| c.index);
    let level = &points[from..];
    let errors: Vec<Option<f64>> = level.iter().map(|p| p.point.stderr).collect();
    let noise = between_run_noise(&means[from..], &errors)?;
    let since = level[0].label();
    Some(BetweenRunNoise {
        noise,
        points: level.len(),
        since,
        mean: means[from..].iter().sum::<f64>() / level.len() as f64,
    })
}
