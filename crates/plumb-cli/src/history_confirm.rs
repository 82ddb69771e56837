//! `plumb history confirm` and `history changes --confirm`: a change point's two ends (the
//! last commit measured before it, the first after) re-run interleaved by `plumb revs`'
//! machinery; confirmed when the re-run differs beyond the SESOI the change's way,
//! rejected when it is within (or the other way), left a candidate when unknown; a
//! confirmed change over several commits bisected to the first of the new level. The
//! re-run's result is kept beside the change. Commands come from the command line or the
//! repository's checked-in plumb.toml; one only the store recorded runs only when trusted.
use crate::exit::{self, CliError};
use crate::history_analysis::{analyse, Analysed, Found, Method};
use crate::history_cmd::parse_change;
use crate::history_out::name;
use crate::revs_args::{ConfirmOptions, HistoryConfirmArgs};
use crate::revs_measure::{self, measure, Request};
use crate::session::Session;
use plumb_analysis::{bisect, Bisection, Step};
use plumb_history::{ChangeStatus, Confirmation, HistoryStore, StoredChange};
use plumb_model::quantity::{Confidence, Fraction, Timestamp};
use plumb_model::{Metric, ResultDocument, Verdict};
use plumb_revs::{build_side, NotBuilt, Repo, RepoConfig};
use plumb_stats::ChangeParams;

/// What confirming needs once for every change: the repository, its plumb.toml, the
/// options, the stop flag; and the builds made so far (a bisection's cost).
pub struct Confirming<'a> {
    repo: Repo,
    config: RepoConfig,
    options: &'a ConfirmOptions,
    sesoi: Fraction,
    session: Session,
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

impl<'a> Confirming<'a> {
    pub fn new(options: &'a ConfirmOptions, sesoi: Fraction) -> Result<Self, CliError> {
        let repo = Repo::discover(&std::env::current_dir()?)?;
        let config = repo.config()?;
        Ok(Confirming {
            repo,
            config,
            options,
            sesoi,
            session: crate::session::stop_on_signals()?,
            builds: 0,
        })
    }

    /// Whether a stop signal ended the work; its exit code.
    pub fn stopped(&self) -> Option<i32> {
        self.session
            .stop
            .load(std::sync::atomic::Ordering::Relaxed)
            .then(|| self.session.exit_code())
    }
}

/// The command that measures `a`'s benchmark: given, else plumb.toml's, else the one the
/// store recorded — run only with --trust-stored-commands. A recorded command that differs
/// from the one run is shown.
fn command_for(
    store: &mut dyn HistoryStore,
    c: &Confirming,
    a: &Analysed,
    run: i64,
) -> Result<String, CliError> {
    let benchmark = &a.series.key.benchmark;
    let doc = store.document(run)?;
    let recorded = doc
        .benchmarks
        .iter()
        .find(|b| &b.name == benchmark)
        .and_then(|b| b.command())
        .map(str::to_string);
    let chosen = if !c.options.command.is_empty() {
        Some((
            plumb_command::join_words(&c.options.command),
            "given after --",
        ))
    } else {
        c.config
            .benchmarks
            .get(benchmark)
            .map(|cmd| (cmd.clone(), "plumb.toml"))
    };
    match (chosen, recorded) {
        (Some((cmd, from)), Some(rec)) if rec != cmd => {
            eprintln!("plumb: {benchmark}: running {cmd:?} ({from}); the store recorded {rec:?}, not run");
            Ok(cmd)
        }
        (Some((cmd, _)), _) => Ok(cmd),
        (None, Some(rec)) if c.options.trust_stored_commands => {
            eprintln!("plumb: {benchmark}: running the command the store recorded (--trust-stored-commands): {rec:?}");
            Ok(rec)
        }
        (None, Some(rec)) => Err(CliError(format!(
            "{benchmark}: its command is recorded only in the history store: {rec:?}. A store may be shared, so what it holds is data, not an instruction: give the command after `--`, check it into plumb.toml's [benchmarks], or pass --trust-stored-commands to run it as recorded"
        ))),
        (None, None) => Err(CliError(format!(
            "{benchmark}: no command to re-run it (none given after `--`, none in plumb.toml's [benchmarks], none recorded)"
        ))),
    }
}

/// One comparison of two commits as a bisection step, `regression` saying which way is
/// the change's; the result document when it was measured.
fn compare(
    c: &mut Confirming,
    m: &Request,
    (old, new): (&str, &str),
    regression: bool,
) -> Result<(Step, Option<ResultDocument>), CliError> {
    let mut sides = Vec::new();
    for sha in [old, new] {
        let rev = c.repo.resolve(sha)?;
        match build_side(
            &c.repo,
            &rev,
            m.measure.build.as_deref(),
            &c.session.stop,
            &mut revs_measure::say,
        )? {
            Ok(side) => {
                c.builds += usize::from(matches!(side.built, plumb_revs::Built::Done { .. }));
                sides.push(side);
            }
            Err(NotBuilt::Failed(message)) => {
                eprintln!("plumb: skipped: {message}");
                return Ok((Step::Unbuildable, None));
            }
            Err(NotBuilt::Interrupted) => return Ok((Step::Unknown, None)),
        }
    }
    let sides: [_; 2] = sides.try_into().map_err(|_| CliError("two sides".into()))?;
    let Some(doc) = measure(&sides, m, &c.session)? else {
        return Ok((Step::Unknown, None));
    };
    let Some(r) = &doc.revisions else {
        return Ok((Step::Unknown, Some(doc)));
    };
    let (verdict, _) = r.verdict();
    let step = match (verdict, regression) {
        (Verdict::Slower, true) | (Verdict::Faster, false) => Step::Changed,
        (Verdict::Inconclusive, _) => Step::Unknown,
        _ => Step::Same,
    };
    if let Some(l) = r.looks.last() {
        eprintln!(
            "plumb: {} → {}: {} (B/A {} [{}, {}], {} rounds)",
            &old[..10],
            &new[..10],
            if verdict == Verdict::Inconclusive {
                "unknown".to_string()
            } else {
                verdict.to_string()
            },
            plumb_model::format::factor(l.ratio),
            plumb_model::format::factor(l.interval.lo),
            plumb_model::format::factor(l.interval.hi),
            l.rounds
        );
    }
    Ok((step, Some(doc)))
}

/// Comparisons a confirmation over `n` commits may make: the two ends, and two per
/// halving of a bisection; each gets α/J (Bonferroni) so the whole holds at α.
fn comparisons_allowed(n: usize) -> usize {
    if n <= 1 {
        1
    } else {
        2 * (usize::BITS - (n - 1).leading_zeros()) as usize + 1
    }
}

fn measure_for(c: &Confirming, command: String, confidence: Confidence) -> Request<'static> {
    let build = c
        .options
        .build
        .clone()
        .or_else(|| c.config.revs.build.clone());
    Request::new(&c.options.rounds, command, (confidence, c.sesoi), build)
}

/// The change's two ends as full commit ids, the old an ancestor of the new; `None` when
/// its results have no commit (said). The store's text is data: resolved by git before
/// any other use (a name that reads as an option is refused there).
fn ends_of(
    c: &Confirming,
    a: &Analysed,
    f: &Found,
    label: &str,
) -> Result<Option<(String, String)>, CliError> {
    let ends = (
        a.points[f.index - 1].commit.as_ref(),
        a.points[f.index].commit.as_ref(),
    );
    let (Some(old), Some(new)) = ends else {
        eprintln!("plumb: {label}: its results have no commit: nothing to re-run");
        return Ok(None);
    };
    let old = c.repo.resolve(&old.sha)?.commit.expect("a commit");
    let new = c.repo.resolve(&new.sha)?.commit.expect("a commit");
    if !c.repo.is_ancestor(&old, &new) || old == new {
        return Err(CliError(format!(
            "{label}: {} (last before) is not an ancestor of {} (first after): the results lie on different lines of history, so there is nothing to re-run in order",
            &old[..10],
            &new[..10]
        )));
    }
    Ok(Some((old, new)))
}

/// The comparisons' settings: each at α/J for the `between` commits the ends span; said.
fn plan_comparisons(
    c: &Confirming,
    label: &str,
    (old, new): (&str, &str),
    between: &[String],
    command: String,
) -> Result<Request<'static>, CliError> {
    if between.last().map(String::as_str) != Some(new) {
        return Err(CliError(format!(
            "{label}: {} is not on {}'s first-parent line: nothing to bisect in order",
            &new[..10],
            &old[..10]
        )));
    }
    let alpha = c.options.confidence.alpha() / comparisons_allowed(between.len()) as f64;
    let level = Confidence::new(1.0 - alpha).expect("a level in (0, 1)");
    eprintln!(
        "plumb: {label}: re-running {} (last before) and {} (first after), {} commit{} apart, each comparison at α = {alpha:.1e}",
        &old[..10],
        &new[..10],
        between.len(),
        if between.len() == 1 { "" } else { "s" }
    );
    Ok(measure_for(c, command, level))
}

/// Confirms the change `s` (found as `f`) of series `a`, records its status and keeps the
/// re-run; `None` when it cannot be re-run (no commits recorded), said.
pub fn confirm_one(
    store: &mut dyn HistoryStore,
    c: &mut Confirming,
    a: &Analysed,
    (f, s): (&Found, &StoredChange),
) -> Result<Option<Confirmed>, CliError> {
    let label = format!("{}@{} ({})", a.series.id, s.run, name(&a.series));
    let Some((old, new)) = ends_of(c, a, f, &label)? else {
        return Ok(None);
    };
    let regression = f.relative() > 0.0;
    let command = command_for(store, c, a, a.points[f.index].run)?;
    let between = c.repo.first_parent_range(&old, &new)?;
    let m = plan_comparisons(c, &label, (&old, &new), &between, command)?;
    let (step, doc) = compare(c, &m, (&old, &new), regression)?;
    let status = match step {
        Step::Changed => ChangeStatus::Confirmed,
        Step::Same => ChangeStatus::Rejected,
        Step::Unknown | Step::Unbuildable => ChangeStatus::Candidate,
    };
    let bisection =
        if status == ChangeStatus::Confirmed && between.len() > 1 && c.stopped().is_none() {
            let mut commits = vec![old.clone()];
            commits.extend(between.iter().cloned());
            let mut step = m.clone();
            step.measure.sesoi = halfway(&doc).unwrap_or(m.measure.sesoi);
            let budget = comparisons_allowed(between.len()) - 1;
            Some(bisect_range(c, &step, &commits, (regression, budget)))
        } else {
            None
        };
    let culprit = match &bisection {
        Some((b, commits)) => b.culprit.map(|i| commits[i].clone()),
        None if status == ChangeStatus::Confirmed => Some(new.clone()),
        None => None,
    };
    let note = note_of(status, &doc, bisection.as_ref(), c.builds);
    eprintln!("plumb: {label}: {note}");
    if let Some(doc) = doc {
        let kept = Confirmation {
            series: a.series.id,
            run: s.run,
            recorded: Timestamp::now(),
            base_sha: old,
            new_sha: new,
            verdict: match status {
                ChangeStatus::Candidate => "unknown".into(),
                other => other.name().into(),
            },
            culprit: culprit.clone(),
            document: doc,
        };
        store.keep_confirmation(&kept)?;
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

/// A bisection step asks which of two levels a commit is at, not whether it moved by
/// more than what matters: its SESOI is half the confirmed change (in log terms), so a
/// commit is at the new level when its interval lies beyond the halfway point and at the
/// old when it lies inside it — a question the rounds settle sooner than equivalence
/// within the user's SESOI.
fn halfway(doc: &Option<ResultDocument>) -> Option<Fraction> {
    let r = doc.as_ref()?.revisions.as_ref()?.looks.last()?.ratio;
    Fraction::new((r.ln().abs() / 2.0).exp() - 1.0)
}

/// Bisects `commits` (the old end first, the new end last) in at most `budget` measured
/// comparisons (the α/J each was given holds only for that many: past it, the range left
/// is said unresolved); the bisection and the list. A step whose command fails, or that
/// cannot run, is skipped as a commit that does not build is.
fn bisect_range(
    c: &mut Confirming,
    m: &Request,
    commits: &[String],
    (regression, budget): (bool, usize),
) -> (Bisection, Vec<String>) {
    let mut measured = 0;
    let b = bisect(commits.len() - 1, |i, j| {
        if c.stopped().is_some() || measured >= budget {
            return Step::Unknown;
        }
        match compare(c, m, (&commits[i], &commits[j]), regression) {
            Ok((step, doc)) => {
                measured += usize::from(doc.is_some());
                step
            }
            Err(e) => {
                eprintln!("plumb: skipped {}: {}", &commits[j][..10], e.0);
                Step::Unbuildable
            }
        }
    });
    (b, commits.to_vec())
}

/// The status, the re-run's figures and the bisection, in a sentence (kept as the note).
fn note_of(
    status: ChangeStatus,
    doc: &Option<ResultDocument>,
    bisection: Option<&(Bisection, Vec<String>)>,
    builds: usize,
) -> String {
    let look = doc
        .as_ref()
        .and_then(|d| d.revisions.as_ref())
        .and_then(|r| r.looks.last().cloned());
    let mut note = match (&look, status) {
        (Some(l), _) => format!(
            "{} by plumb revs: B/A {} [{}, {}] after {} rounds",
            match status {
                ChangeStatus::Candidate => "unknown",
                other => other.name(),
            },
            plumb_model::format::factor(l.ratio),
            plumb_model::format::factor(l.interval.lo),
            plumb_model::format::factor(l.interval.hi),
            l.rounds
        ),
        (None, _) => "not settled: the re-run was stopped or could not build".to_string(),
    };
    if let Some((b, commits)) = bisection {
        let short = |i: usize| commits[i][..10].to_string();
        let skipped: Vec<String> = b.skipped.iter().map(|&i| short(i)).collect();
        match b.culprit {
            Some(i) => note.push_str(&format!("; bisected to {} ", short(i))),
            None => note.push_str(&format!(
                "; bisection left {}..{} unresolved ",
                short(b.old),
                short(b.new)
            )),
        }
        note.push_str(&format!(
            "in {} comparisons, {builds} builds{}",
            b.comparisons,
            if skipped.is_empty() {
                String::new()
            } else {
                format!("; not buildable, stepped around: {}", skipped.join(", "))
            }
        ));
    }
    note
}

/// Confirms every candidate in `analysed` that `pick` chooses; exit 1 when a regression
/// was confirmed, the stop's code when stopped; and each change's line.
pub fn confirm_all(
    store: &mut dyn HistoryStore,
    analysed: &[Analysed],
    c: &mut Confirming,
    pick: impl Fn(&Analysed, &StoredChange) -> bool,
) -> Result<(i32, Vec<String>), CliError> {
    let mut regressions = 0;
    let mut said = Vec::new();
    // plumb revs judges wall time: a change in another metric is not re-run by it.
    for a in analysed
        .iter()
        .filter(|a| a.series.key.metric == Metric::WallTime.as_str())
    {
        for (f, s) in a.changes.iter().filter(|(_, s)| pick(a, s)) {
            if let Some(code) = c.stopped() {
                return Ok((code, said));
            }
            if let Some(done) = confirm_one(store, c, a, (f, s))? {
                regressions +=
                    usize::from(done.status == ChangeStatus::Confirmed && done.regression);
                said.push(done.said);
            }
        }
    }
    if let Some(code) = c.stopped() {
        return Ok((code, said));
    }
    let code = if regressions > 0 {
        eprintln!("plumb: {regressions} confirmed regression(s)");
        exit::REGRESSION
    } else {
        exit::OK
    };
    Ok((code, said))
}

/// `plumb history confirm [SERIES@RUN]`: the store analysed as `plumb history changes`
/// does, then the change named, or every candidate, confirmed.
pub fn run(store: &mut dyn HistoryStore, a: &HistoryConfirmArgs) -> Result<i32, CliError> {
    let wanted = a.change.as_deref().map(parse_change).transpose()?;
    let analysed = analyse(store, Method::Plumb(ChangeParams::default()))?;
    if let Some((series, run)) = wanted {
        let known = analysed
            .iter()
            .any(|x| x.series.id == series && x.changes.iter().any(|(_, s)| s.run == run));
        if !known {
            return Err(CliError(format!(
                "no change point {series}@{run} in the history's analysis (plumb history changes lists them)"
            )));
        }
        if let Some(x) = analysed
            .iter()
            .find(|x| x.series.id == series && x.series.key.metric != Metric::WallTime.as_str())
        {
            return Err(CliError(format!(
                "{series}@{run} is a change in {}: plumb revs re-runs and judges wall time, so only a wall-time change can be confirmed",
                x.series.key.metric
            )));
        }
    }
    let mut c = Confirming::new(&a.options, a.sesoi)?;
    let (code, _said_on_stderr) = confirm_all(store, &analysed, &mut c, |x, s| match wanted {
        Some((series, run)) => x.series.id == series && s.run == run,
        None => s.status == ChangeStatus::Candidate,
    })?;
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// J = 2⌈log2 N⌉ + 1: the ends, and at most two comparisons per halving.
    #[test]
    fn comparisons_allowed_grow_with_the_halvings() {
        assert_eq!(comparisons_allowed(1), 1);
        assert_eq!(comparisons_allowed(2), 3);
        assert_eq!(comparisons_allowed(5), 7);
        assert_eq!(comparisons_allowed(8), 7);
        assert_eq!(comparisons_allowed(20), 11);
    }
}
