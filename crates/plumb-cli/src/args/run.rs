//! The options of `plumb run`.
use super::common::{CountersArg, ExportArgs, SaveArgs};
use crate::values;
use clap::{Args, ValueEnum};
use plumb_model::quantity::{Confidence, Duration, Fraction};
use plumb_model::Question;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    /// A fresh random order of the commands in every round.
    Shuffle,
    /// Rotate the starting command each round.
    RoundRobin,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Commands to benchmark, run directly (not through a shell) unless --shell is given.
    #[arg(required = true, value_name = "COMMAND")]
    pub commands: Vec<String>,

    /// Print every column (RatioSD, User, Sys, MaxRSS) and each finding with its figures
    /// and advice; by default the report keeps to what changes a decision.
    #[arg(short, long)]
    pub verbose: bool,

    /// For plumb's own tests (hyperfine's --debug-mode): run nothing; each command "takes"
    /// the time its text says (`fast 5ms`, `sleep 0.25`, `… exit 3`), on an empty machine
    /// record, so the whole output is exact.
    #[arg(long, hide = true)]
    pub debug_fake_runs: bool,

    /// Warm-up runs of each command before measuring.
    #[arg(short, long, default_value = "3", value_name = "N", value_parser = values::count, allow_negative_numbers = true)]
    pub warmup: u64,

    /// Exactly N measured runs of each command (overrides the min/max settings).
    #[arg(short, long, value_name = "N", value_parser = values::positive, allow_negative_numbers = true)]
    pub runs: Option<u64>,

    /// At least N measured runs of each command (11 by default: the fewest whose median
    /// has an interval at 99.9 %).
    #[arg(short = 'm', long, default_value = "11", value_name = "N", value_parser = values::positive, allow_negative_numbers = true)]
    pub min_runs: u64,

    /// At most N measured runs of each command.
    #[arg(short = 'M', long, value_name = "N", value_parser = values::positive, allow_negative_numbers = true)]
    pub max_runs: Option<u64>,

    /// Measure each command for at least this long in total (e.g. 3s, 500ms).
    #[arg(long, default_value = "3s", value_name = "TIME")]
    pub min_time: Duration,

    /// Stop measuring a command after this long in total.
    #[arg(long, value_name = "TIME")]
    pub max_time: Option<Duration>,

    /// Run before every timed run (through sh -c). Give once for all commands or once per command.
    #[arg(short, long, value_name = "CMD")]
    pub prepare: Vec<String>,

    /// Run once after a command's last run (through sh -c). Once for all, or once per command.
    #[arg(short, long, value_name = "CMD")]
    pub cleanup: Vec<String>,

    /// Run commands through a shell: --shell for sh, --shell=bash for another. Its start-up
    /// time is measured in the same rounds and subtracted.
    #[arg(short = 'S', long, value_name = "SHELL", num_args = 0..=1, require_equals = true, default_missing_value = "sh")]
    pub shell: Option<String>,

    /// Name of a command in the report, in the order of the commands.
    #[arg(short = 'n', long = "name", value_name = "NAME")]
    pub names: Vec<String>,

    /// The baseline the others are compared with: a name or a 1-based position (default: the first).
    #[arg(long, value_name = "NAME|N")]
    pub baseline: Option<String>,

    /// Order of commands within each round.
    #[arg(long, value_enum, default_value_t = OrderArg::Shuffle)]
    pub order: OrderArg,

    /// Seed for --order shuffle (recorded in the result, so a run can be replayed).
    #[arg(long, value_name = "N", value_parser = values::count)]
    pub seed: Option<u64>,

    /// Scan a numeric parameter: {NAME} in commands takes LO, LO+STEP, … HI.
    #[arg(short = 'P', long, num_args = 3, value_names = ["NAME", "LO", "HI"], allow_negative_numbers = true)]
    pub parameter_scan: Vec<String>,

    /// Step of --parameter-scan.
    #[arg(
        short = 'D',
        long,
        default_value_t = 1.0,
        value_name = "STEP",
        allow_negative_numbers = true
    )]
    pub parameter_step_size: f64,

    /// A parameter over a list: {NAME} takes each comma-separated value.
    #[arg(short = 'L', long, num_args = 2, value_names = ["NAME", "VALUES"])]
    pub parameter_list: Vec<String>,

    /// Keep measuring commands that exit non-zero (their exit codes are recorded).
    #[arg(short, long)]
    pub ignore_failure: bool,

    /// Count events per command: the kernel's software events (task-clock, page faults,
    /// context switches, migrations) in each measured run, from the command's start to
    /// its exit, children included; hardware counters (instructions, cycles, branch and
    /// cache misses) where the CPU has them, or else — with `auto`, the default — a
    /// simulation by valgrind's cachegrind with this machine's cache sizes, once per
    /// command after the timed runs. `plumb env` says which counters open here. Counting
    /// makes every spawn slower (the kernel copies the counters into each child and
    /// back), so compare times only between runs made with the same setting
    #[arg(long, value_enum, value_name = "HOW", num_args = 0..=1, require_equals = true, default_missing_value = "auto")]
    pub counters: Option<CountersArg>,

    /// The longest one command's simulation may take (--counters): a simulation estimated
    /// to take longer (from the command's timed runs) is not started, one that runs
    /// longer is stopped, and the result says so.
    #[arg(long, default_value = "60s", value_name = "DURATION")]
    pub sim_budget: Duration,

    /// How many operations (elements, requests…) one run of each command performs, e.g.
    /// 1000000 or a parameter, {n}: every figure (time, counters) is then also given per
    /// operation.
    #[arg(long, value_name = "N")]
    pub operations: Option<String>,

    /// The bytes one run touches, e.g. 64K, 8MiB, or a parameter, {size}: a sweep over it
    /// is shown against this machine's caches, with the size where time per operation
    /// jumps. A parameter named size or bytes whose values are sizes is taken by itself.
    #[arg(long, value_name = "BYTES")]
    pub working_set: Option<String>,

    /// A workload file (TOML) declaring what the benchmarks model — keys, mix, records,
    /// sizes, threads, rate, durability, state, the question asked, and production's
    /// traits ([benchmarks."NAME"] for one benchmark's own): recorded in the result and
    /// its red flags checked beside the run's findings (`plumb design check FILE`
    /// checks it without running).
    #[arg(long, value_name = "FILE.toml")]
    pub workload: Option<PathBuf>,

    /// Where the commands' standard output goes: null, inherit, or a file path.
    #[arg(long, default_value = "null", value_name = "WHERE")]
    pub output: String,

    /// Confidence level of intervals and tests.
    #[arg(long, default_value = "99.9%", value_name = "LEVEL")]
    pub confidence: Confidence,

    /// Smallest effect size of interest for verdicts, e.g. 2% or 0.02.
    #[arg(long, default_value = "2%", value_name = "EFFECT")]
    pub sesoi: Fraction,

    /// The question verdicts answer, i.e. which statistic they compare: best (the
    /// minimum: no interval, called only beyond the SESOI plus the clock's resolution),
    /// typical (the median), mean, or worst (p99; worst=p99.9 for another): quantiles
    /// with distribution-free order-statistic intervals. Whichever is asked, a note says
    /// when another question gets another answer.
    #[arg(long, default_value = "mean", value_name = "QUESTION")]
    pub question: Question,

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
