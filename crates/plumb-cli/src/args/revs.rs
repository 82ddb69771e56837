//! The options of `plumb revs`: two revisions, how to build them, the command to time in
//! each, and the sequential design's caps.
use super::common::{CountersArg, ExportArgs};
use crate::values;
use clap::Args;
use plumb_model::quantity::{Confidence, Duration, Fraction};

#[derive(Debug, Args)]
pub struct RevsArgs {
    /// The baseline revision (A): a branch, tag, sha or any name git takes.
    #[arg(value_name = "A")]
    pub base: String,

    /// The revision measured against it (B); HEAD by default, which with --allow-dirty
    /// is the working tree as it is.
    #[arg(value_name = "B")]
    pub new: Option<String>,

    /// The command to time in each revision's worktree, after `--`. Run directly (not
    /// through a shell) unless --shell is given; a relative program (`./target/release/x`)
    /// is the worktree's.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<String>,

    /// Build each revision with this command (through sh -c, in its worktree); by default
    /// plumb.toml's [revs] build, as committed at HEAD. A finished build of the same tree
    /// and command is reused.
    #[arg(long, value_name = "CMD")]
    pub build: Option<String>,

    /// The command is an in-process harness that writes a plumb result to the file
    /// `--export-json FILE` names (implied by `cargo bench`): each round runs it once per
    /// side and judges each of its benchmarks.
    #[arg(long)]
    pub harness: bool,

    /// Measure even though the working tree has uncommitted changes: B (HEAD) is then the
    /// working tree itself, built and run in place.
    #[arg(long)]
    pub allow_dirty: bool,

    #[command(flatten)]
    pub rounds: RoundsArgs,

    /// Run before every timed run (through sh -c, in the side's worktree).
    #[arg(short, long, value_name = "CMD")]
    pub prepare: Option<String>,

    /// Count events per run, as plumb run --counters does.
    #[arg(long, value_enum, value_name = "HOW", num_args = 0..=1, require_equals = true, default_missing_value = "auto")]
    pub counters: Option<CountersArg>,

    /// Confidence of the repeated interval: the chance it holds the true ratio at every
    /// look at once.
    #[arg(long, default_value = "99.9%", value_name = "LEVEL")]
    pub confidence: Confidence,

    /// Smallest effect of interest: slower or faster beyond it, equivalent inside it.
    #[arg(long, default_value = "2%", value_name = "EFFECT")]
    pub sesoi: Fraction,

    /// The question the verdict answers, i.e. each round's statistic: typical (the
    /// median of its pairs of adjacent runs), mean (the ratio of its means) or best (of
    /// its minima). A high percentile is refused: a round's p99 would be its slowest run.
    #[arg(long, default_value = "typical", value_name = "QUESTION")]
    pub question: plumb_model::Question,

    /// Seed of the order of A and B within rounds (recorded in the result).
    #[arg(long, value_name = "N", value_parser = values::count)]
    pub seed: Option<u64>,

    #[command(flatten)]
    pub exports: ExportArgs,

    /// Every column and each finding's figures and advice.
    #[arg(short, long)]
    pub verbose: bool,

    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

/// How many rounds, and how long: `plumb revs`' and each comparison of `plumb history
/// confirm`'s.
#[derive(Debug, Args)]
pub struct RoundsArgs {
    /// The cap in rounds (of each comparison, when confirming): looks at round 10, then
    /// every 5, up to this; still unknown there is said as such. At least 2 (a round's
    /// spread needs two).
    #[arg(long, default_value = "60", value_name = "N", value_parser = values::at_least_two, allow_negative_numbers = true)]
    pub max_rounds: u64,

    /// Stop adding rounds after this long (e.g. 2m; of each comparison, when confirming);
    /// unknown if not settled by then.
    #[arg(long, value_name = "TIME")]
    pub max_time: Option<Duration>,

    /// Runs of each side per round (default: enough that a side's round takes 300 ms,
    /// between 5 and 50, from one trial run of each).
    #[arg(long, value_name = "N", value_parser = values::positive, allow_negative_numbers = true)]
    pub runs_per_round: Option<u64>,

    /// Warm-up runs of each side before the first round.
    #[arg(short, long, default_value = "3", value_name = "N", value_parser = values::count, allow_negative_numbers = true)]
    pub warmup: u64,

    /// For plumb's own tests: run nothing; each command "takes" the time its text says,
    /// `cat FILE` the time FILE in its worktree holds (plumb run's --debug-fake-runs).
    #[arg(long, hide = true)]
    pub debug_fake_runs: bool,
}

/// How `plumb history confirm` and `plumb history changes --confirm` re-run a change's
/// two ends. The commands run are those given here or checked into the repository's
/// plumb.toml; one recorded only in the (possibly shared) store runs only with
/// --trust-stored-commands.
#[derive(Debug, Args)]
pub struct ConfirmOptions {
    /// Build each revision with this command (through sh -c, in its worktree); by default
    /// plumb.toml's [revs] build, as committed at HEAD.
    #[arg(long, value_name = "CMD")]
    pub build: Option<String>,

    /// Run a benchmark's command as the store recorded it when neither the command line
    /// nor plumb.toml gives one. A shared store's commands are data written by whoever
    /// can write to it: read them first (plumb shows them).
    #[arg(long)]
    pub trust_stored_commands: bool,

    #[command(flatten)]
    pub rounds: RoundsArgs,

    /// Confidence of the whole confirmation: each of its J comparisons (the two ends, and
    /// up to 2⌈log2 N⌉ in a bisection of N commits) gets (1 − confidence)/J.
    #[arg(long, default_value = "99.9%", value_name = "LEVEL")]
    pub confidence: Confidence,

    /// The benchmark's command, after `--` (every series confirmed runs it).
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

impl RoundsArgs {
    /// The rounds as plumb-changes' request takes them.
    pub fn rounds(&self) -> plumb_changes::Rounds {
        plumb_changes::Rounds {
            max_rounds: self.max_rounds,
            max_time: self.max_time,
            runs_per_round: self.runs_per_round,
            warmup: self.warmup,
            fake_runs: self.debug_fake_runs,
        }
    }
}

impl ConfirmOptions {
    /// The options as plumb-changes' confirmation request, judged against `sesoi`.
    pub fn request(&self, sesoi: Fraction) -> plumb_changes::ConfirmOptions {
        plumb_changes::ConfirmOptions {
            build: self.build.clone(),
            trust_stored_commands: self.trust_stored_commands,
            rounds: self.rounds.rounds(),
            confidence: self.confidence,
            sesoi,
            command: self.command.clone(),
        }
    }
}

#[derive(Debug, Args)]
pub struct HistoryConfirmArgs {
    /// The change, as `plumb history changes` names it (SERIES@RUN); every candidate when
    /// absent.
    #[arg(value_parser = plumb_history::parse_change_id, value_name = "SERIES@RUN")]
    pub change: Option<(i64, i64)>,

    /// Smallest effect of interest: confirmed when the re-run differs by more, the
    /// change's way; rejected when it is within.
    #[arg(long, default_value = "2%", value_name = "EFFECT")]
    pub sesoi: Fraction,

    #[command(flatten)]
    pub options: ConfirmOptions,
}
