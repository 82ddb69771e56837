//! A change point confirmed: its two ends (the last commit measured before it, the first
//! after) re-run interleaved by plumb revs' machinery; confirmed when the re-run differs
//! beyond the SESOI the change's way, rejected when it is within (or the other way), left
//! a candidate when unknown; a confirmed change over several commits bisected to the first
//! of the new level. The re-run's result is kept beside the change.
use crate::command::command_for;
use crate::note::{note_of, status_word};
use crate::step::{bisect_range, compare, comparisons_allowed, halfway};
use crate::{analyse, ChangesError, Method, Request, Rounds};
use plumb_analysis::Step;
use plumb_history::git::short;
use plumb_history::{
    ChangeStatus, Confirmation, HistoryStore, SeriesRecord, StoredChange, StoredSeries,
};
use plumb_model::quantity::{Confidence, Fraction, Timestamp};
use plumb_model::Metric;
use plumb_revs::{Repo, RepoConfig};
use plumb_stats::ChangeParams;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// How a change's two ends are re-run (with feature `cli`, the options of `plumb history
/// confirm` and `plumb history changes --confirm`). The commands run are those given here
/// or checked into the repository's plumb.toml; one recorded only in the (possibly
/// shared) store runs only with --trust-stored-commands.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct ConfirmOptions {
    /// Build each revision with this command (through sh -c, in its worktree); by default
    /// plumb.toml's [revs] build, as committed at HEAD.
    #[cfg_attr(feature = "cli", arg(long, value_name = "CMD"))]
    pub build: Option<String>,
    /// Run a benchmark's command as the store recorded it when neither the command line
    /// nor plumb.toml gives one. A shared store's commands are data written by whoever
    /// can write to it: read them first (plumb shows them).
    #[cfg_attr(feature = "cli", arg(long))]
    pub trust_stored_commands: bool,
    #[cfg_attr(feature = "cli", command(flatten))]
    pub rounds: Rounds,
    /// Confidence of the whole confirmation: each of its J comparisons (the two ends, and
    /// up to 2⌈log2 N⌉ in a bisection of N commits) gets (1 − confidence)/J.
    #[cfg_attr(
        feature = "cli",
        arg(long, default_value = "99.9%", value_name = "LEVEL")
    )]
    pub confidence: Confidence,
    /// Smallest effect of interest: a change smaller is said, never failed on; a re-run
    /// confirms a change when it differs by more, the change's way, and rejects it when it
    /// is within.
    #[cfg_attr(
        feature = "cli",
        arg(long, default_value = "2%", value_name = "EFFECT")
    )]
    pub sesoi: Fraction,
    /// The benchmark's command, after `--` (every series confirmed runs it); plumb.toml's
    /// (or, trusted, the store's) when absent.
    #[cfg_attr(feature = "cli", arg(last = true, value_name = "COMMAND"))]
    pub command: Vec<String>,
}

/// What confirming needs once for every change: the repository, its plumb.toml, the
/// options, the stop flag, where notices go; and the builds made so far (a bisection's
/// cost).
pub struct Confirming<'a> {
    pub(crate) repo: Repo,
    pub(crate) config: RepoConfig,
    pub(crate) options: &'a ConfirmOptions,
    pub(crate) stop: &'a AtomicBool,
    pub(crate) say: &'a mut dyn FnMut(String),
    pub builds: usize,
}

/// How one change came out.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirmed {
    pub status: ChangeStatus,
    /// The change is to a slower level.
    pub regression: bool,
    pub culprit: Option<String>,
    /// The change and what became of it, in a line (`3@41 (parse · wall-time): confirmed …`).
    pub said: String,
}

/// How the changes confirmed together came out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Confirmations {
    /// Regressions confirmed.
    pub regressions: usize,
    /// A stop signal ended the work.
    pub stopped: bool,
    /// Each change's line.
    pub said: Vec<String>,
}

impl<'a> Confirming<'a> {
    /// For the repository `dir` is in.
    pub fn new(
        options: &'a ConfirmOptions,
        dir: &Path,
        stop: &'a AtomicBool,
        say: &'a mut dyn FnMut(String),
    ) -> Result<Self, ChangesError> {
        let repo = Repo::discover(dir)?;
        let config = repo.config()?;
        Ok(Confirming {
            repo,
            config,
            options,
            stop,
            say,
            builds: 0,
        })
    }

    /// Whether a stop signal ended the work.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn request(&self, command: String, confidence: Confidence) -> Request {
        let o = self.options;
        let build = o.build.clone().or_else(|| self.config.revs.build.clone());
        Request::new(&o.rounds, command, (confidence, o.sesoi), build)
    }
}

/// `series@run` and the series' name, as `plumb history changes` shows them.
fn label_of(series: &StoredSeries, run: i64) -> String {
    format!("{}@{run} ({})", series.id, series.name())
}

/// The change's two ends as full commit ids, the old an ancestor of the new; `None` when
/// its results have no commit (said). The store's text is data: resolved by git before
/// any other use (a name that reads as an option is refused there).
fn ends_of(
    c: &mut Confirming,
    a: &SeriesRecord,
    index: usize,
    label: &str,
) -> Result<Option<(String, String)>, ChangesError> {
    let ends = (
        a.points[index - 1].commit.as_ref(),
        a.points[index].commit.as_ref(),
    );
    let (Some(old), Some(new)) = ends else {
        (c.say)(format!(
            "{label}: its results have no commit: nothing to re-run"
        ));
        return Ok(None);
    };
    let old = c.repo.resolve(&old.sha)?.commit.expect("a commit");
    let new = c.repo.resolve(&new.sha)?.commit.expect("a commit");
    if !c.repo.is_ancestor(&old, &new) || old == new {
        return Err(ChangesError::NotAncestor {
            label: label.into(),
            old,
            new,
        });
    }
    Ok(Some((old, new)))
}

/// The comparisons' settings: each at α/J for the `between` commits the ends span; said.
fn plan_comparisons(
    c: &mut Confirming,
    label: &str,
    (old, new): (&str, &str),
    between: &[String],
    command: String,
) -> Result<Request, ChangesError> {
    if between.last().map(String::as_str) != Some(new) {
        return Err(ChangesError::NotFirstParent {
            label: label.into(),
            old: old.into(),
            new: new.into(),
        });
    }
    let alpha = c.options.confidence.alpha() / comparisons_allowed(between.len()) as f64;
    let level = Confidence::new(1.0 - alpha).expect("a level in (0, 1)");
    (c.say)(format!(
        "{label}: re-running {} (last before) and {} (first after), {} commit{} apart, each comparison at α = {alpha:.1e}",
        short(old),
        short(new),
        between.len(),
        if between.len() == 1 { "" } else { "s" }
    ));
    Ok(c.request(command, level))
}

/// Confirms the change `s` of series `a`, records its status and keeps the
/// re-run; `None` when it cannot be re-run (no commits recorded), said.
pub fn confirm_one(
    store: &mut dyn HistoryStore,
    c: &mut Confirming,
    a: &SeriesRecord,
    s: &StoredChange,
) -> Result<Option<Confirmed>, ChangesError> {
    let label = label_of(&a.series, s.run);
    let Some((index, f)) = a.found(s) else {
        (c.say)(format!(
            "{label}: not found by this analysis: nothing to re-run"
        ));
        return Ok(None);
    };
    let Some((old, new)) = ends_of(c, a, index, &label)? else {
        return Ok(None);
    };
    let regression = f.relative() > 0.0;
    let command = command_for(store, c, a, a.points[index].run)?;
    let between = c.repo.first_parent_range(&old, &new)?;
    let m = plan_comparisons(c, &label, (&old, &new), &between, command)?;
    let (step, doc) = compare(c, &m, (&old, &new, true), regression)?;
    let status = match step {
        Step::Changed => ChangeStatus::Confirmed,
        Step::Same => ChangeStatus::Rejected,
        Step::Unknown | Step::Unbuildable => ChangeStatus::Candidate,
    };
    let mut commits = vec![old.clone()];
    commits.extend(between.iter().cloned());
    let bisection =
        (status == ChangeStatus::Confirmed && between.len() > 1 && !c.stopped()).then(|| {
            let mut step = m.clone();
            step.measure.sesoi = halfway(&doc).unwrap_or(m.measure.sesoi);
            let budget = comparisons_allowed(between.len()) - 1;
            bisect_range(c, &step, &commits, (regression, budget))
        });
    let culprit = match &bisection {
        Some(b) => b.culprit.map(|i| commits[i].clone()),
        None if status == ChangeStatus::Confirmed => Some(new.clone()),
        None => None,
    };
    let mut note = note_of(
        status,
        &doc,
        bisection.as_ref().map(|b| (b, commits.as_slice())),
        c.builds,
    );
    if c.stopped() {
        // Not unknown for want of rounds: cut short, which the note must not hide.
        note = format!("stopped by a signal before it settled ({note})");
    }
    (c.say)(format!("{label}: {note}"));
    if let Some(document) = doc {
        store.keep_confirmation(&Confirmation {
            series: a.series.id,
            run: s.run,
            recorded: Timestamp::now(),
            base_sha: old,
            new_sha: new,
            verdict: status_word(status).into(),
            culprit: culprit.clone(),
            document,
        })?;
    }
    // Nothing settled: a status a person or an earlier re-run gave is kept.
    if status != ChangeStatus::Candidate || s.status == ChangeStatus::Candidate {
        store.set_status(a.series.id, s.run, status, Some(&note))?;
    }
    Ok(Some(Confirmed {
        status,
        regression,
        culprit,
        said: format!("{label}: {note}"),
    }))
}

/// Confirms every change in `analysed` that `pick` chooses, until a stop signal.
pub fn confirm_all(
    store: &mut dyn HistoryStore,
    analysed: &[SeriesRecord],
    c: &mut Confirming,
    pick: impl Fn(&SeriesRecord, &StoredChange) -> bool,
) -> Result<Confirmations, ChangesError> {
    let mut out = Confirmations::default();
    // plumb revs judges wall time: a change in another metric is not re-run by it.
    for a in analysed
        .iter()
        .filter(|a| a.series.key.metric == Metric::WallTime.as_str())
    {
        for s in a.changes.iter().filter(|s| pick(a, s)) {
            if c.stopped() {
                break;
            }
            if let Some(done) = confirm_one(store, c, a, s)? {
                out.regressions +=
                    usize::from(done.status == ChangeStatus::Confirmed && done.regression);
                out.said.push(done.said);
            }
        }
    }
    out.stopped = c.stopped();
    Ok(out)
}

/// The store analysed as `plumb history changes` does, then the change `wanted`
/// (SERIES, RUN), or every candidate, confirmed.
pub fn confirm_named(
    store: &mut dyn HistoryStore,
    c: &mut Confirming,
    wanted: Option<(i64, i64)>,
) -> Result<Confirmations, ChangesError> {
    let analysed = analyse(store, Method::Plumb(ChangeParams::default()))?;
    if let Some((series, run)) = wanted {
        let known = analysed
            .iter()
            .any(|x| x.series.id == series && x.changes.iter().any(|s| s.run == run));
        if !known {
            return Err(ChangesError::NoSuchChange { series, run });
        }
        if let Some(x) = analysed
            .iter()
            .find(|x| x.series.id == series && x.series.key.metric != Metric::WallTime.as_str())
        {
            return Err(ChangesError::NotWallTime {
                series,
                run,
                metric: x.series.key.metric.clone(),
            });
        }
    }
    confirm_all(store, &analysed, c, |x, s| match wanted {
        Some((series, run)) => x.series.id == series && s.run == run,
        None => s.status == ChangeStatus::Candidate,
    })
}
