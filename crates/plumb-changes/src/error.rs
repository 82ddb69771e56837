//! What can go wrong finding or confirming a change, each said with what to do about it.
use plumb_history::git::short;
use plumb_history::HistoryError;
use plumb_revs::RevsError;
use plumb_stats::StatsError;
use std::fmt;

#[derive(Debug)]
pub enum ChangesError {
    /// The history store failed.
    History(HistoryError),
    /// A revision could not be resolved, built or measured.
    Revs(RevsError),
    /// A series could not be analysed.
    Stats(StatsError),
    /// The benchmark's command is recorded only in the store, and not trusted.
    StoredCommandOnly { benchmark: String, recorded: String },
    /// No command to re-run the benchmark with.
    NoCommand { benchmark: String },
    /// A change's ends are not in order on one line of history.
    NotAncestor {
        label: String,
        old: String,
        new: String,
    },
    /// The new end is not on the old one's first-parent line.
    NotFirstParent {
        label: String,
        old: String,
        new: String,
    },
    /// A question the rounds cannot answer (a round's worst is its slowest run; a
    /// harness's round has one invocation a side).
    Question {
        question: plumb_model::Question,
        harness: bool,
    },
    /// `plumb run --until-settled` asked a question its rounds cannot answer.
    RoundsQuestion(plumb_model::Question),
    /// `plumb run --until-settled`'s commands could not be run.
    Run(plumb_command::RunError),
    /// A parameter of the analysis out of its range: why.
    Parameter(String),
    /// No such change point in the analysis.
    NoSuchChange { series: i64, run: i64 },
    /// One of a change's two ends does not build: nothing can confirm or reject it.
    EndNotBuilt { label: String, why: String },
    /// The change is in a metric plumb revs does not judge.
    NotWallTime {
        series: i64,
        run: i64,
        metric: String,
    },
}

impl fmt::Display for ChangesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChangesError::History(e) => e.fmt(f),
            ChangesError::EndNotBuilt { label, why } => write!(
                f,
                "{label}: cannot re-run the change: {why}"
            ),
            ChangesError::Revs(e) => e.fmt(f),
            ChangesError::Stats(e) => e.fmt(f),
            ChangesError::StoredCommandOnly { benchmark, recorded } => write!(
                f,
                "{benchmark}: its command is recorded only in the history store: {recorded:?}. A store may be shared, so what it holds is data, not an instruction: give the command after `--`, check it into plumb.toml's [benchmarks], or pass --trust-stored-commands to run it as recorded"
            ),
            ChangesError::NoCommand { benchmark } => write!(
                f,
                "{benchmark}: no command to re-run it (none given after `--`, none in plumb.toml's [benchmarks], none recorded)"
            ),
            ChangesError::NotAncestor { label, old, new } => write!(
                f,
                "{label}: {} (last before) is not an ancestor of {} (first after): the results lie on different lines of history, so there is nothing to re-run in order",
                short(old),
                short(new)
            ),
            ChangesError::NotFirstParent { label, old, new } => write!(
                f,
                "{label}: {} is not on {}'s first-parent line: nothing to bisect in order",
                short(new),
                short(old)
            ),
            ChangesError::Question {
                question,
                harness: false,
            } => write!(
                f,
                "--question {question}: plumb revs judges rounds of 5–50 runs a side, and a round's {} would be its slowest run; ask it of fixed samples instead: plumb run CMD_A CMD_B --question {question}",
                question.statistic()
            ),
            ChangesError::Question {
                question,
                harness: true,
            } => write!(
                f,
                "--question {question}: a harness's rounds are one invocation a side, judged by their ratio (the typical question); ask {question} of one result with plumb compare"
            ),
            ChangesError::RoundsQuestion(question) => write!(
                f,
                "--question {question} with --until-settled: a round holds 5–50 runs a side, and its {} would be its slowest run; ask it of a fixed budget (without --until-settled)",
                question.statistic()
            ),
            ChangesError::Run(e) => e.fmt(f),
            ChangesError::Parameter(why) => f.write_str(why),
            ChangesError::NoSuchChange { series, run } => write!(
                f,
                "no change point {series}@{run} in the history's analysis (plumb history changes lists them)"
            ),
            ChangesError::NotWallTime { series, run, metric } => write!(
                f,
                "{series}@{run} is a change in {metric}: plumb revs re-runs and judges wall time, so only a wall-time change can be confirmed"
            ),
        }
    }
}

impl std::error::Error for ChangesError {}

impl From<HistoryError> for ChangesError {
    fn from(e: HistoryError) -> Self {
        ChangesError::History(e)
    }
}

impl From<RevsError> for ChangesError {
    fn from(e: RevsError) -> Self {
        ChangesError::Revs(e)
    }
}

impl From<plumb_command::RunError> for ChangesError {
    fn from(e: plumb_command::RunError) -> Self {
        ChangesError::Run(e)
    }
}

impl From<StatsError> for ChangesError {
    fn from(e: StatsError) -> Self {
        ChangesError::Stats(e)
    }
}
