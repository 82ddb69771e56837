//! The options of `plumb run`.
use super::common::{ExportArgs, SaveArgs};
use clap::Args;
use plumb_command::options::RunOptions;
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::Question;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub plan: RunOptions,

    /// Print every column (RatioSD, User, Sys, MaxRSS) and each finding with its figures
    /// and advice; by default the report keeps to what changes a decision.
    #[arg(short, long)]
    pub verbose: bool,

    /// For plumb's own tests (hyperfine's --debug-mode): run nothing; each command "takes"
    /// the time its text says (`fast 5ms`, `sleep 0.25`, `… exit 3`), on an empty machine
    /// record, so the whole output is exact.
    #[arg(long, hide = true)]
    pub debug_fake_runs: bool,

    #[command(flatten)]
    pub counting: plumb_counters::plan::CommandCounting,

    /// A workload file (TOML) declaring what the benchmarks model — keys, mix, records,
    /// sizes, threads, rate, durability, state, the question asked, and production's
    /// traits ([benchmarks."NAME"] for one benchmark's own): recorded in the result and
    /// its red flags checked beside the run's findings (`plumb design check FILE`
    /// checks it without running).
    #[arg(long, value_name = "FILE.toml")]
    pub workload: Option<PathBuf>,

    /// Confidence level of intervals and tests.
    #[arg(long, default_value = "99.9%", value_name = "LEVEL")]
    pub confidence: Confidence,

    /// Smallest effect size of interest for verdicts, e.g. 2% or 0.02.
    #[arg(long, default_value = "2%", value_name = "EFFECT")]
    pub sesoi: Fraction,

    /// The statistic verdicts compare: best (the minimum, beyond the SESOI plus the clock's
    /// resolution), typical (the median), mean, worst (p99; worst=p99.9). Not given: the
    /// mean, or the median where far-out samples leave it inconclusive (said).
    #[arg(long, value_name = "QUESTION")]
    pub question: Option<Question>,

    /// Leave upper outliers (Tukey) out of the statistics; the output says so.
    #[arg(long)]
    pub drop_outliers: bool,

    #[command(flatten)]
    pub exports: ExportArgs,

    #[command(flatten)]
    pub save: SaveArgs,

    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
}
