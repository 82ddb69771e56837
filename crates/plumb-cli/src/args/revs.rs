//! The options of `plumb revs`: two revisions, how to build them, the command to time in
//! each, and the sequential design's caps.
use super::common::ExportArgs;
use clap::Args;
use plumb_changes::{ConfirmOptions, Rounds};
use plumb_model::quantity::{Confidence, Fraction};

#[derive(Debug, Args)]
pub struct RevsArgs {
    /// The baseline revision (A): a branch, tag, sha or any name git takes.
    #[arg(value_name = "A")]
    pub base: String,

    /// The revision measured against it (B); HEAD by default, which with --allow-dirty
    /// is the working tree as it is.
    #[arg(value_name = "B")]
    pub new: Option<String>,

    /// The command to time in each revision's worktree, after `--`. Run directly, not
    /// through a shell (for shell syntax: `-- sh -c '…'`); a relative program
    /// (`./target/release/x`) is the worktree's.
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
    pub rounds: Rounds,

    /// Run before every timed run (through sh -c, in the side's worktree).
    #[arg(short, long, value_name = "CMD")]
    pub prepare: Option<String>,

    #[command(flatten)]
    pub counting: plumb_counters::plan::CommandCounting,

    #[command(flatten)]
    pub gate: super::common::GateArgs,

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
    #[arg(long, value_name = "N", value_parser = |s: &str| plumb_model::quantity::parse_count(s, 0))]
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

#[derive(Debug, Args)]
pub struct HistoryConfirmArgs {
    /// The change, as `plumb history changes` names it (SERIES@RUN); every candidate when
    /// absent.
    #[arg(value_parser = plumb_history::parse_change_id, value_name = "SERIES@RUN")]
    pub change: Option<(i64, i64)>,

    #[command(flatten)]
    pub options: ConfirmOptions,
}
