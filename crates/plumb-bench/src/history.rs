//! `--save` / `--history PATH`: the harness keeps its result in the history store, as
//! `plumb run --save` does (plumb-history's `Keeper`): the store opened before anything is
//! measured (one that cannot be written stops the run first), the result kept after its
//! files are written, at the working directory's commit; a stopped run is not kept.
//! Its mean's interval between runs is read from the same store. Without the `history`
//! feature the options are refused as they are parsed, and the saver keeps nothing.
use crate::args::Args;
use crate::error::BenchError;
#[cfg(feature = "history")]
use plumb_history::Location;
use plumb_model::ResultDocument;
use std::path::Path;
#[cfg(feature = "history")]
use std::path::PathBuf;

#[cfg(not(feature = "history"))]
pub(crate) struct Saver;

#[cfg(not(feature = "history"))]
pub(crate) fn open(_: &Args, _: bool) -> Result<Saver, BenchError> {
    Ok(Saver)
}

#[cfg(not(feature = "history"))]
impl Saver {
    pub(crate) fn keep(self, _: &ResultDocument, _: Option<&Path>) -> Result<(), BenchError> {
        Ok(())
    }
}

#[cfg(not(feature = "history"))]
pub(crate) fn between_runs(_: &Args, _: &mut ResultDocument) {}

#[cfg(feature = "history")]
pub(crate) struct Saver(plumb_history::Saver);

/// Each mean's interval between runs, where the store `--history` names (else the
/// default one, when it exists) measured the drift between runs of its benchmark on this
/// machine, as `plumb run` states it; the store is only read, and one that cannot be read
/// is said and the run goes on.
#[cfg(feature = "history")]
pub(crate) fn between_runs(args: &Args, doc: &mut ResultDocument) {
    let read = |doc: &ResultDocument| -> Result<_, BenchError> {
        plumb_history::wall_time_noise_in(doc, args.history.as_deref(), &here()?)
            .map_err(|e| BenchError::History(e.to_string()))
    };
    match read(doc) {
        Ok(found) => plumb_analysis::across_runs_all(doc, &found),
        Err(e) => {
            eprintln!("plumb-bench: the history was not read for the intervals between runs: {e}")
        }
    }
}

#[cfg(feature = "history")]
fn here() -> Result<PathBuf, BenchError> {
    std::env::current_dir().map_err(|e| BenchError::System {
        what: "cannot read the working directory".into(),
        cause: e.to_string(),
    })
}

/// The store `args` ask for, open and writable; nothing when they ask for none.
#[cfg(feature = "history")]
pub(crate) fn open(args: &Args, test_mode: bool) -> Result<Saver, BenchError> {
    let wanted = !test_mode && !args.launch_child && (args.save || args.history.is_some());
    let location = wanted.then(|| {
        Location::to_keep(args.history.as_deref(), &here()?)
            .map_err(|e| BenchError::History(e.to_string()))
    });
    let saver = plumb_history::Saver::open(location.transpose()?)
        .map_err(|e| BenchError::History(e.to_string()))?;
    Ok(Saver(saver))
}

#[cfg(feature = "history")]
impl Saver {
    /// Keeps `doc`; `json`, its JSON export, is where the error says the result is when
    /// the store fails.
    pub(crate) fn keep(self, doc: &ResultDocument, json: Option<&Path>) -> Result<(), BenchError> {
        let mut say = |line: String| eprintln!("plumb-bench: {line}");
        let at = (&*here()?, json);
        (self.0.keep(doc, at, &mut say)).map_err(|e| BenchError::History(e.to_string()))
    }
}

#[cfg(all(test, feature = "history"))]
mod tests {
    use super::*;
    use plumb_analysis::{analyse_document, AnalysisConfig};
    use plumb_history::HistoryStore;
    use plumb_model::quantity::{Confidence, Fraction};
    use plumb_model::{Benchmark, BenchmarkKind, DiagnosticCode, Invocation, Settings};

    /// A harness's result: one function whose runs take `mean` and up to 2 µs more.
    fn result(mean: std::time::Duration) -> ResultDocument {
        let mean_nanos = mean.as_nanos() as u64;
        let settings = Settings {
            confidence: Confidence::DEFAULT,
            sesoi: Fraction::DEFAULT_SESOI,
            question: Default::default(),
            producer: plumb_model::ProducerSettings::None,
        };
        let invocation = Invocation {
            argv: vec!["bench".into()],
            cwd: None,
        };
        let mut doc = ResultDocument::new("0", invocation, Default::default(), settings);
        let times = (0..30).map(|i| mean_nanos + (i % 3) * 1000);
        doc.benchmarks.push(Benchmark::of_wall_times(
            "f",
            BenchmarkKind::Function,
            times,
        ));
        let cfg = AnalysisConfig::new(Confidence::DEFAULT, Fraction::DEFAULT_SESOI);
        analyse_document(&mut doc, &cfg);
        doc
    }

    /// Five kept runs (10.0, 10.2, 9.9, 10.1, 9.8 ms) measure the drift: the next result
    /// gets the interval between runs, as `plumb run` states it, and one at twice their
    /// level is said to be unlike them.
    #[test]
    fn the_harness_states_the_interval_its_history_measured() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.db");
        let mut store = plumb_history::SqliteStore::open(&path).unwrap();
        for ms in [10_000, 10_200, 9_900, 10_100, 9_800] {
            store
                .add(&result(std::time::Duration::from_micros(ms)), None)
                .unwrap();
        }
        drop(store);
        let args = Args {
            history: Some(path.to_str().unwrap().into()),
            ..Args::default()
        };
        let mut doc = result(std::time::Duration::from_millis(10));
        between_runs(&args, &mut doc);
        let across = doc.benchmarks[0].time().unwrap().between_runs.clone();
        assert_eq!(across.map(|b| b.runs), Some(5));
        let mut far = result(std::time::Duration::from_millis(20));
        between_runs(&args, &mut far);
        let unlike = far.benchmarks[0].diagnostics.iter();
        assert!(unlike
            .map(|d| d.code())
            .any(|c| c == DiagnosticCode::UnlikeRecentRuns));
    }
}
