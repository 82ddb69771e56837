//! `plumb compare` of two separate runs: the noise between runs, from the history of each
//! benchmark on the base's machine where there is one (its last level: the runs since its
//! last change point), widens the ratio's interval; where there is none (or no store), the
//! comparison says so. The store is only read.
use crate::ChangesError;
use plumb_analysis::{between_run_noise, machine_findings, unmeasured, widened, BetweenRunNoise};
use plumb_history::{HistoryStore, MachineFingerprint, StoredPoint};
use plumb_model::{ComparisonDocument, ResultDocument};
use plumb_stats::{change_points, ChangeParams, Series};

/// Widens each comparison that the history in `store` measures, and notes the others.
pub fn widen_by_history(
    cmp: &mut ComparisonDocument,
    base: &ResultDocument,
    new: &ResultDocument,
    store: Option<&mut dyn HistoryStore>,
) -> Result<(), ChangesError> {
    let machine = machine_findings(base, new);
    let Some(store) = store else {
        cmp.notes.push(unmeasured(machine));
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
        cmp.notes.push(unmeasured(machine));
    }
    Ok(())
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
    })
}
