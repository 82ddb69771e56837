//! The noise between runs, from the history of each benchmark on the run's machine where
//! there is one (its last level: the runs since its last change point). `plumb compare`
//! of two separate runs widens the ratio's interval by it, and says so where there is none
//! (or no store); `plumb run` states each mean's interval between runs beside its own. The
//! store is only read.
use crate::ChangesError;
use plumb_analysis::{across_runs_all, machine_findings, unmeasured, widened};
use plumb_history::{key_noise, wall_time_noise_in, HistoryStore, MachineFingerprint, SeriesKey};
use plumb_model::{ComparisonDocument, ResultDocument};
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
        let key = SeriesKey {
            benchmark: b.name.clone(),
            parameters: b.parameters.clone(),
            metric: c.metric.to_string(),
            machine: fingerprint.clone(),
        };
        if let Some(noise) = key_noise(store, &series, &key)? {
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
/// its history on this machine measured the drift between runs, in the store `given`
/// names (else $PLUMB_HISTORY, else the default under the git top level of `dir`) where
/// one exists; a run those runs do not predict gets the finding that says so.
pub fn between_runs_in_history(
    doc: &mut ResultDocument,
    given: Option<&str>,
    dir: &Path,
) -> Result<(), ChangesError> {
    let found = wall_time_noise_in(doc, given, dir)?;
    across_runs_all(doc, &found);
    Ok(())
}
