//! The command line of `plumb`: every subcommand and its options, as clap definitions.
use crate::values;
use clap::{Args, Parser, Subcommand, ValueEnum};
use plumb_model::quantity::{Confidence, Duration, Fraction, Rate};
use plumb_model::Question;
use std::path::PathBuf;

/// Parses the command line. Every option that takes one value takes it even when it
/// starts with '-': `--rate -5` or `--sesoi -2%` reaches the value's own parser, which
/// says it is out of range, instead of clap calling `-5` an unexpected argument and
/// suggesting `-- -5`, which would make it a command to benchmark.
pub fn parse() -> Cli {
    use clap::{CommandFactory, FromArgMatches};
    let command = values_may_start_with_a_dash(Cli::command());
    let matches = command.get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

fn values_may_start_with_a_dash(command: clap::Command) -> clap::Command {
    command
        .mut_args(|a| {
            let one_value = a.get_num_args().is_none_or(|n| n.min_values() == 1);
            if !a.is_positional() && a.get_action().takes_values() && one_value {
                a.allow_hyphen_values(true)
            } else {
                a
            }
        })
        .mut_subcommands(values_may_start_with_a_dash)
}

/// plumb: performance measurement that tells the truth.
#[derive(Debug, Parser)]
#[command(
    name = "plumb",
    version,
    propagate_version = true,
    about = "Benchmark commands, compare results, load-test HTTP servers: every number with its error bars, every comparison with a verdict, every result with the checks it passed or failed.",
    after_help = "Exit codes: 0 done (for compare: nothing slower), 1 compare found something slower by more than the SESOI, 2 bad input or a failing benchmark, 128 + N stopped by signal N (130 for Ctrl-C).\n\nExamples:\n  plumb run 'sleep 0.01' 'sleep 0.02'\n  plumb compare before.json after.json\n  plumb load http://127.0.0.1:8080/ --rate 1000 --duration 30s"
)]
pub struct Cli {
    /// When to colour the output: auto (a terminal, and NO_COLOR unset), always, never.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto)]
    pub color: ColorArg,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Benchmark whole commands: interleaved runs, error bars, ratios, verdicts.
    #[command(
        after_help = "Example:\n  plumb run 'gzip -k -f big.log' 'zstd -f big.log' --export-json r.json\n\nExit codes: 0 done, 2 bad input or a failing command, 128 + N stopped by signal N."
    )]
    Run(Box<RunArgs>),
    /// Compare two result files benchmark by benchmark; exits 1 if anything got slower
    /// by more than the SESOI.
    #[command(
        after_help = "Example:\n  plumb compare main.json branch.json --sesoi 3%\n\nExit codes: 0 nothing slower, 1 something slower by more than the SESOI, 2 bad input."
    )]
    Compare(CompareArgs),
    /// Show the machine record and what on it makes numbers noisy.
    #[command(after_help = "Example:\n  plumb env --json > machine.json")]
    Env(EnvArgs),
    /// Load an HTTP server at a constant rate, open loop: latency from each request's due
    /// time, no coordinated omission.
    #[command(
        args_conflicts_with_subcommands = true,
        subcommand_negates_reqs = true,
        after_help = "Example:\n  plumb load http://127.0.0.1:8080/ --rate 1000 --duration 30s --warmup 5s --export-json a.json\n\nExit codes: 0 done and every gate passed; 1 a gate failed: errors above --max-error-rate (0 % by default: any error fails), or the generator fell behind its schedule (its own send lateness p99 above 5 ms) without --allow-late; 2 bad input, an unreachable target, or no request succeeded; 128 + N stopped by signal N."
    )]
    Load(Box<LoadArgs>),
    /// Merge the results of load agents that ran together: counts add, histograms add
    /// losslessly. The same result twice, and runs whose measured windows do not overlap,
    /// are refused.
    #[command(after_help = "Example:\n  plumb merge agent-*.json -o all.json")]
    Merge(MergeArgs),
    /// Coordinate agents of one load test on many machines: they join (each with
    /// `plumb load ... --agents N --coordinator ADDR`), get one start on a common clock,
    /// report live, and their results are merged here. It never tells an agent what to
    /// load: it refuses agents whose target, rate or duration differ.
    #[command(
        after_help = "Example (token shared in PLUMB_TOKEN):\n  plumb coordinate --agents 4 --listen 10.0.0.2:7207 -o all.json\n  plumb load http://10.0.0.1/ --rate 2000 --duration 60s --warmup 5s --agents 4 --agent-index I --coordinator 10.0.0.2:7207\n\nExit codes: 0 every agent's result merged and every gate passed; 1 a gate failed on the merged data (errors, an agent behind its schedule); 2 not every agent joined, or one was lost or failed (the result is written, marked incomplete); 128 + N stopped by signal N."
    )]
    Coordinate(Box<crate::agents_args::CoordinateArgs>),
    /// Show saved results again (table, verdicts, diagnostics), or convert one to another
    /// format.
    #[command(
        after_help = "Examples:\n  plumb show results.json\n  plumb show results.json --export-markdown results.md"
    )]
    Show(ShowArgs),
    /// Write one self-contained HTML page of results: tables, verdicts, findings, and
    /// charts (CDF, run order, load percentile spectrum) as inline SVG; no fetches.
    #[command(after_help = "Example:\n  plumb report results.json -o report.html")]
    Report(ReportArgs),
    /// Print shell completions: plumb completions bash > /etc/bash_completion.d/plumb
    Completions(CompletionsArgs),
    /// Print the man page (roff): plumb man > plumb.1
    Man,
    /// Simulate a service with stalls under a closed-loop and an open-loop client: what
    /// coordinated omission hides, by exact queueing arithmetic in virtual time.
    #[command(
        after_help = "Example:\n  plumb simulate --rate 450 --service 1ms --stall 200ms --stall-every 500"
    )]
    Simulate(SimulateArgs),
    /// Profile a command (or one benchmark's measured loop) by sampling with perf: the
    /// top functions by self and children share, a flame graph, folded stacks,
    /// per-instruction annotation; or compare two saved profiles (--diff).
    #[command(
        after_help = "Examples:\n  plumb profile -- ./shares 1000\n  plumb profile --annotate heavy -o prof -- ./shares 1000\n  plumb profile --bench parse/json -- target/release/deps/mybench-1a2b3c\n  plumb profile --diff before/profile.json after/profile.json -o diff\n\nWrites into --out: profile.json (the result), profile.md (the table), stacks.folded, flamegraph.svg (diff.svg and diff.md for --diff), perf.data.\n\nExit codes: 0 done, 2 bad input, no samples, or a failing command, 128 + N stopped by signal N (what was sampled is kept)."
    )]
    Profile(Box<ProfileArgs>),
    /// What one function's speedup can do for the whole (Amdahl's law), from its share in
    /// a profile, next to the end-to-end change when given.
    #[command(
        after_help = "Examples:\n  plumb amdahl prof/profile.json --function heavy --micro 2\n  plumb amdahl prof/profile.json --function heavy --micro micro.json --macro macro.json\n\nA speedup is a number (2 or 2x: twice as fast) or a plumb result or comparison file whose comparison gives it (FILE#BENCHMARK to choose one).\n\nExit codes: 0 done, 2 bad input."
    )]
    Amdahl(AmdahlArgs),
    /// Keep results per commit and find where a benchmark's level changed (change points).
    #[command(
        after_help = "Examples:\n  plumb history add results.json\n  plumb history list\n  plumb history changes --fail-on new-change\n\nThe store: --history PATH, else $PLUMB_HISTORY, else .plumb/history.db at the top of the git repository (or the working directory).\n\nExit codes: 0 done; 1 (changes --fail-on new-change) a new change point slower by more than the SESOI; 2 bad input or a store that cannot be used."
    )]
    History(HistoryArgs),
    /// Two git revisions built in their own worktrees and timed interleaved until the
    /// verdict settles (sequential, error rates held across looks); exits 1 if B is slower
    /// by more than the SESOI.
    #[command(
        after_help = "Example:\n  plumb revs origin/main HEAD --build 'cargo build --release' -- ./target/release/app input.txt\n\nExit codes: 0 not slower (faster, equivalent, or unknown at the cap: said), 1 B slower by more than the SESOI, 2 bad input, a failed build or a failing command, 128 + N stopped by signal N."
    )]
    Revs(Box<crate::revs_args::RevsArgs>),
    /// Check a benchmark's declared design (a workload file) for the red flags that make
    /// benchmarks lie — data that fits in cache, sequential keys, one thread, no fsync,
    /// a closed loop asked for p99 — against this machine. Measures nothing.
    #[command(
        after_help = "Example:\n  plumb design check workload.toml\n\nExit codes: 0 no red flags, 1 red flags (warnings) found, 2 bad input."
    )]
    Design(DesignArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CallGraphArg {
    /// Frame pointers where the binary keeps them, DWARF unwinding where it does not.
    Auto,
    /// The frame-pointer chain.
    Fp,
    /// DWARF unwinding of a copy of the stack.
    Dwarf,
}

#[derive(Debug, Args)]
pub struct ProfileArgs {
    /// The command, after `--` (with --bench: a plumb-bench target binary).
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
    /// Profile only this benchmark's measured loop (its setup and the harness left out).
    #[arg(long, value_name = "NAME")]
    pub bench: Option<String>,
    /// With --bench: how long the measured loop runs under perf.
    #[arg(long, default_value = "3s", value_name = "TIME")]
    pub bench_time: Duration,
    /// The directory the outputs go to (made if absent); report.html among them.
    #[arg(short, long, default_value = "plumb-profile", value_name = "DIR")]
    pub out: PathBuf,
    /// Also write the page of plumb report (flame graph and table) to FILE.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// The perf event to sample: auto (cycles where the CPU counts them, cpu-clock where
    /// it does not), or any event perf knows.
    #[arg(long, default_value = "auto", value_name = "EVENT")]
    pub event: String,
    /// Samples per second.
    #[arg(short = 'F', long, default_value_t = plumb_profile::DEFAULT_FREQUENCY_HZ, value_name = "HZ", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub frequency: u32,
    /// How perf walks the stack.
    #[arg(long, value_enum, default_value_t = CallGraphArg::Auto)]
    pub call_graph: CallGraphArg,
    /// Rows of the table printed.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub top: usize,
    /// Per-instruction samples of this function, with source lines where the binary has
    /// debug info (repeatable; the name as the table prints it).
    #[arg(long, value_name = "FUNCTION")]
    pub annotate: Vec<String>,
    /// Also the allocation sites, by valgrind's DHAT: where the code allocates most (count
    /// and bytes; per operation with --bench).
    #[arg(long)]
    pub alloc: bool,
    /// Exit 0 even when the command fails (the profile is written either way).
    #[arg(short, long)]
    pub ignore_failure: bool,
    /// Compare two saved profiles (profile.json, or .folded stacks) instead of profiling.
    #[arg(long, num_args = 2, value_names = ["BEFORE", "AFTER"], conflicts_with_all = ["command", "bench"])]
    pub diff: Option<Vec<PathBuf>>,
}

#[derive(Debug, Args)]
pub struct AmdahlArgs {
    /// A saved profile (profile.json of plumb profile).
    pub profile: PathBuf,
    /// The function sped up, as the profile's table names it.
    #[arg(long, value_name = "NAME")]
    pub function: String,
    /// Its own speedup: a number (2: twice as fast) or a result/comparison file.
    #[arg(long, value_name = "SPEEDUP|FILE[#BENCH]")]
    pub micro: String,
    /// The end-to-end speedup measured: a number or a result/comparison file.
    #[arg(long = "macro", value_name = "SPEEDUP|FILE[#BENCH]")]
    pub macro_: Option<String>,
    /// Confidence of the share's interval.
    #[arg(long, default_value = "95%")]
    pub confidence: Confidence,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CountersArg {
    /// Hardware counters where the CPU has them; simulated (cachegrind) where it does not.
    Auto,
    /// The CPU's counters only; refused where the CPU or the hypervisor exposes none.
    Hardware,
    /// Simulated by valgrind's cachegrind with this machine's cache sizes.
    Simulated,
}

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

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The result to compare against.
    pub base: PathBuf,
    /// The new result.
    pub new: PathBuf,
    /// Smallest effect size of interest, e.g. 2% or 0.02.
    #[arg(long, default_value = "2%", value_name = "EFFECT")]
    pub sesoi: Fraction,

    /// The question verdicts answer, i.e. which statistic they compare: best (the
    /// minimum: no interval, called only beyond the SESOI plus the clock's resolution),
    /// typical (the median), mean, or worst (p99; worst=p99.9 for another): quantiles
    /// with distribution-free order-statistic intervals. Whichever is asked, a note says
    /// when another question gets another answer.
    #[arg(long, default_value = "mean", value_name = "QUESTION")]
    pub question: Question,
    /// Confidence level of intervals and tests.
    #[arg(long, default_value = "99.9%", value_name = "LEVEL")]
    pub confidence: Confidence,
    /// The metric to compare, per operation: wall-time (default), user-time,
    /// system-time, peak-rss, allocations, allocated-bytes, or any counter both results
    /// measured.
    #[arg(long, default_value = "wall-time", value_name = "METRIC")]
    pub metric: plumb_model::Metric,
    /// Compare benchmark OLD of the base result with NEW of the new one (names differ);
    /// repeatable. Others pair by name.
    #[arg(long = "pair", value_name = "OLD=NEW", value_parser = values::pair)]
    pub pairs: Vec<(String, String)>,
    /// Write the comparison as a JSON document (format "plumb-comparison").
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// The history that measures the noise between runs (a SQLite file or a postgres://
    /// URL); without it, $PLUMB_HISTORY, else .plumb/history.db when there is one.
    #[arg(long, value_name = "PATH|URL")]
    pub history: Option<String>,
    #[command(flatten)]
    pub import: ImportArgs,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Result files (plumb's JSON, or another tool's export plumb reads), or comparisons
    /// saved by `plumb compare --export-json`. Two results with benchmarks in common are
    /// also compared on the page.
    #[arg(required_unless_present = "history", value_name = "RESULT")]
    pub results: Vec<PathBuf>,
    /// Draw the history instead: each series' trend with its change points, from this
    /// store (a SQLite file or a postgres:// URL), or from the default one when given bare.
    #[arg(long, value_name = "PATH|URL", num_args = 0..=1, default_missing_value = "", conflicts_with = "results")]
    pub history: Option<String>,
    /// The HTML file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Also write each chart as an SVG file of its own into DIR.
    #[arg(long, value_name = "DIR")]
    pub svg_dir: Option<PathBuf>,
    #[command(flatten)]
    pub import: ImportArgs,
}

/// The tool whose results the files are, when their content does not say.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Read the results as this tool's: hyperfine, google-benchmark, criterion, go,
    /// pytest-benchmark, jmh, benchmarkdotnet, asv, catch2, gungraun, bmf (found from
    /// the content otherwise).
    #[arg(long, value_name = "NAME", value_parser = crate::compare_cmd::import_format)]
    pub format: Option<plumb_import::ForeignTool>,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Result files (plumb's JSON, or another tool's export plumb reads).
    #[arg(required = true, value_name = "RESULT")]
    pub results: Vec<PathBuf>,
    /// Also show the machine record each result was measured on.
    #[arg(long)]
    pub environment: bool,
    #[command(flatten)]
    pub exports: ExportArgs,
    #[command(flatten)]
    pub import: ImportArgs,
}

/// Keeping a result in the history store as well as in its files.
#[derive(Debug, Args)]
pub struct SaveArgs {
    /// Keep the result in the history store at this commit (see plumb history).
    #[arg(long)]
    pub save: bool,
    /// Keep it in this store, a SQLite file or a postgres:// URL (implies --save); without
    /// it, $PLUMB_HISTORY, else .plumb/history.db at the top of the git repository.
    #[arg(long, value_name = "PATH|URL")]
    pub history: Option<String>,
}

/// The exports a result can be written to ('-' for standard output).
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Write the full result (every raw sample) as JSON.
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Write the table, verdicts and diagnostics as Markdown.
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,
    /// Write one CSV row per benchmark.
    #[arg(long, value_name = "FILE")]
    pub export_csv: Option<PathBuf>,
    /// Write a self-contained HTML page with charts (as plumb report).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct DesignArgs {
    #[command(subcommand)]
    pub command: DesignCommand,
}

#[derive(Debug, Subcommand)]
pub enum DesignCommand {
    /// Read a workload file and print its traits and red flags.
    Check {
        /// The workload file (TOML): keys, mix, records, sizes, threads, rate,
        /// durability, state, warm-up, duration, question, [production] ...
        #[arg(value_name = "FILE.toml")]
        file: PathBuf,
        /// Where the data would live, for the disk-size check (default: the file's
        /// directory).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Print the designs and their findings as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Args)]
pub struct EnvArgs {
    /// Print the record as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// Target rate, requests per second.
    #[arg(long, default_value = "450")]
    pub rate: Rate,
    /// How long the test runs (virtual time), e.g. 30s.
    #[arg(long, default_value = "30s")]
    pub duration: Duration,
    /// Service time of a normal request, e.g. 1ms, 250us.
    #[arg(long, default_value = "1ms")]
    pub service: Duration,
    /// How long a stalled request takes (with --stall-every) or the server pauses (with
    /// --stall-period); 0 for no stalls.
    #[arg(long, default_value = "200ms")]
    pub stall: Duration,
    /// Stall on every N-th request.
    #[arg(long, value_name = "N", value_parser = values::positive, conflicts_with = "stall_period")]
    pub stall_every: Option<u64>,
    /// Stall for --stall at every multiple of this much time, e.g. 1s.
    #[arg(long, value_name = "TIME")]
    pub stall_period: Option<Duration>,
    /// Poisson arrivals instead of a constant interval.
    #[arg(long)]
    pub poisson: bool,
    /// Seed for --poisson.
    #[arg(long, default_value_t = 1, value_parser = values::count)]
    pub seed: u64,
    /// Pace the closed-loop client to --rate too (it waits when ahead of the schedule)
    /// instead of sending back to back as fast as the server answers.
    #[arg(long)]
    pub closed_paced: bool,
    /// Write closed.hgrm and open.hgrm (HdrHistogram percentile distributions) here.
    #[arg(long, value_name = "DIR")]
    pub hgrm_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct LoadArgs {
    /// The target, http[s]://host[:port]/path. Two targets are loaded in turn, run by run
    /// (A B B A … with --repeat), and the second compared with the first: exit 1 when it
    /// is slower at a percentile.
    #[arg(required_unless_present = "targets", num_args = 1..=2, value_name = "URL")]
    pub urls: Vec<String>,
    /// A request mix instead of one URL: a targets file in vegeta's format (`METHOD URL`,
    /// header lines, `@body-file`, a blank line between targets) with an optional
    /// `weight N` line per target. Each request draws its target by weight from --seed
    /// (the same seed and threads draw the same sequence); each target is reported apart
    /// and the whole together; -H headers are added to every target.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["urls", "method", "body"])]
    pub targets: Option<PathBuf>,

    /// A workload file (TOML) declaring what the benchmarks model — keys, mix, records,
    /// sizes, threads, rate, durability, state, the question asked, and production's
    /// traits ([benchmarks."NAME"] for one benchmark's own): recorded in the result and
    /// its red flags checked beside the run's findings (`plumb design check FILE`
    /// checks it without running).
    #[arg(long, value_name = "FILE.toml")]
    pub workload: Option<PathBuf>,
    /// Runs of the test, one after the other. Comparisons judge a percentile by the
    /// spread of the runs' own: run-to-run variation, which one run cannot show (one run
    /// per side compares as inconclusive).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeat: u32,
    /// Open loop at this many requests per second.
    #[arg(long, required_unless_present = "closed", conflicts_with = "closed")]
    pub rate: Option<Rate>,
    /// Closed loop with N connections instead (throughput; not user latency).
    #[arg(long, value_name = "N", value_parser = values::positive)]
    pub closed: Option<u64>,
    /// Measured duration, e.g. 30s.
    #[arg(long, default_value = "10s")]
    pub duration: Duration,
    /// Warm-up before measuring (its requests are sent, not recorded).
    #[arg(long, default_value = "2s")]
    pub warmup: Duration,
    /// Per-request timeout.
    #[arg(long, default_value = "10s")]
    pub timeout: Duration,
    /// Most requests in flight at once, i.e. connections (open loop; split between
    /// threads). Beyond it, due requests wait for a connection: their latency includes
    /// the wait and the report says the server did not keep up at this concurrency. Like
    /// oha's 50 connections, a small pool spares the server a storm of connects when it
    /// stalls; raise it for servers slower than this bound divided by the rate.
    #[arg(long, default_value = "64", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_in_flight: u64,
    /// One connection per request, closed after its answer: each latency then includes
    /// the TCP connect and, over https, the TLS handshake (as a client without
    /// keep-alive feels it); both are also reported apart. The in-flight bound is then
    /// the most connections open at once.
    #[arg(long, conflicts_with = "pipeline")]
    pub new_connection: bool,
    /// Poisson arrivals (open loop), from --seed.
    #[arg(long)]
    pub poisson: bool,
    /// The seed of Poisson arrivals and of a mix's draws.
    #[arg(long, default_value_t = 1, value_parser = values::count)]
    pub seed: u64,
    /// HTTP method.
    #[arg(short = 'X', long, default_value = "GET")]
    pub method: String,
    /// A request header, 'Name: value'; repeatable.
    #[arg(short = 'H', long = "header")]
    pub headers: Vec<String>,
    /// Request body.
    #[arg(long, default_value = "")]
    pub body: String,
    /// Print the per-second timeline.
    #[arg(long)]
    pub timeline: bool,
    /// Write latency.hgrm, service.hgrm (and lateness.hgrm) here.
    #[arg(long, value_name = "DIR")]
    pub hgrm_dir: Option<PathBuf>,
    /// Write the result (with whole histograms) as JSON.
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Write a self-contained HTML page with charts (as plumb report).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Write per-second latency histograms as an HdrHistogram interval log (.hlog).
    #[arg(long, value_name = "FILE")]
    pub hlog: Option<PathBuf>,
    #[command(flatten)]
    pub tls: crate::load_tls::TlsArgs,
    #[command(flatten)]
    pub save: SaveArgs,
    /// Start the schedule at this wall-clock time (Unix seconds, or RFC 3339 in UTC), so
    /// agents start together.
    #[arg(long, value_name = "UNIX_SECONDS", value_parser = values::unix_time)]
    pub start_at: Option<plumb_model::quantity::Timestamp>,
    /// This agent's name, recorded in the result (for plumb merge).
    #[arg(long)]
    pub agent: Option<String>,
    /// N agents share one schedule: --rate is then the whole test's, and this agent sends
    /// arrivals I, I + N, I + 2N, … of it (I from --agent-index), so the agents together
    /// send exactly what one generator would have, due time by due time (Poisson too).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub agents: Option<u32>,
    /// This agent's index, 0 … N − 1 (else JOB_COMPLETION_INDEX, as a Kubernetes Indexed
    /// Job sets it, or SLURM_PROCID).
    #[arg(long, value_name = "I")]
    pub agent_index: Option<u32>,
    #[command(flatten)]
    pub link: crate::agents_args::AgentLinkArgs,
    #[command(subcommand)]
    pub deploy: Option<crate::deploy_args::LoadCommand>,
    /// Confidence level recorded with the result (and used when it is analysed or compared).
    #[arg(long, default_value = "99.9%", value_name = "LEVEL")]
    pub confidence: Confidence,
    /// Smallest effect size of interest recorded with the result, e.g. 2% or 0.02.
    #[arg(long, default_value = "2%", value_name = "EFFECT")]
    pub sesoi: Fraction,
    /// How long before each due time to stop sleeping and poll instead (e.g. 100us, 1s):
    /// longer sends more punctually and keeps the thread hot, at a CPU cost.
    #[arg(long, default_value = "100us")]
    pub spin: Duration,
    /// Generator threads, each with its own connections, share of the rate and recorder
    /// (merged losslessly at the end).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Requests outstanding on one connection at once (HTTP/1.1 pipelining). 1, the
    /// default, sends each request on a connection with nothing in flight.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub pipeline: u32,
    /// HTTP/2: on https offered by ALPN (a server that offers only HTTP/1.1 is said, and
    /// measured over HTTP/1.1), on http by prior knowledge (h2c). Requests are streams
    /// multiplexed on few connections (--streams each); latency still runs from each
    /// request's due time.
    #[arg(long, conflicts_with = "pipeline")]
    pub http2: bool,
    /// With --http2: the most streams in flight on one connection (the server's own
    /// bound, its SETTINGS_MAX_CONCURRENT_STREAMS, applies too). Connections opened:
    /// --max-in-flight divided by this.
    #[arg(long, default_value_t = 100, requires = "http2", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub streams: u32,
    /// Answers with a larger body fail (and close their connection).
    #[arg(long, default_value = "64MiB", value_name = "SIZE")]
    pub max_body: plumb_model::quantity::ByteSize,
    /// After the measured window, wait at most this long (never past --timeout) for answers
    /// still in flight; those unanswered then count as errors.
    #[arg(long, default_value = "2s")]
    pub drain: Duration,
    /// The fraction of requests that may fail with the run still exiting 0: 0, the default,
    /// fails on any error; e.g. 0.1% or 0.001.
    #[arg(long, default_value = "0", value_name = "FRACTION", value_parser = values::error_rate)]
    pub max_error_rate: f64,
    /// Exit 0 even when the generator fell behind its own schedule (send lateness p99
    /// above --max-lateness); the report still says so.
    #[arg(long)]
    pub allow_late: bool,
    /// The generator's own send lateness p99 above which it is behind its schedule (exit
    /// 1 unless --allow-late). A shared CI runner that starves the generator for
    /// milliseconds at a time may need more.
    #[arg(long, default_value = "5ms")]
    pub max_lateness: Duration,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Result files of `plumb load --export-json`.
    #[arg(required = true, num_args = 2..)]
    pub inputs: Vec<PathBuf>,
    /// Where the merged result goes.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Merge runs whose measured windows do not overlap (at least 90 % of each): the
    /// merged rate is then over the union of the windows.
    #[arg(long)]
    pub allow_disjoint: bool,
}

#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// The store: a SQLite file's path, or a postgres:// URL (its password better in
    /// PGPASSWORD or ~/.pgpass than on a command line anyone can read in ps).
    #[arg(
        long,
        global = true,
        env = "PLUMB_HISTORY",
        value_name = "PATH|URL",
        hide_env_values = true
    )]
    pub history: Option<String>,
    #[command(subcommand)]
    pub command: HistoryCommand,
}

#[derive(Debug, Subcommand)]
pub enum HistoryCommand {
    /// Keep saved results (plumb's, hyperfine's or Google Benchmark's JSON) at a commit.
    Add(HistoryAddArgs),
    /// Every series: its points, first and last commit, last value and change points.
    List,
    /// One series: its points (commit, runs, mean and interval), a trend line, and the
    /// change points the last analysis found.
    Show(HistoryShowArgs),
    /// Every series and point, with its commit and the changes recorded, as CSV or JSON.
    Export(HistoryExportArgs),
    /// Find the change points of every series and say each with its commits, levels,
    /// magnitude, p-value and status.
    Changes(HistoryChangesArgs),
    /// Acknowledge a change point (an intended change: it no longer fails CI).
    Ack(HistoryAckArgs),
    /// Re-run a change point's two ends interleaved (plumb revs) and mark it confirmed or
    /// rejected; a change spanning several commits is bisected to the first of the new
    /// level. Exits 1 on a confirmed regression.
    Confirm(Box<crate::revs_args::HistoryConfirmArgs>),
}

#[derive(Debug, Args)]
pub struct HistoryAddArgs {
    /// Result files.
    #[arg(required = true)]
    pub results: Vec<PathBuf>,
    /// The commit they were measured at, when not the working directory's HEAD.
    #[arg(long, value_name = "SHA")]
    pub commit: Option<String>,
    #[command(flatten)]
    pub import: ImportArgs,
}

#[derive(Debug, Args)]
pub struct HistoryShowArgs {
    /// The series: its id (plumb history list), its name as listed ("parse · wall-time"),
    /// or a benchmark's name (its wall time, when it has one).
    pub series: String,
}

#[derive(Debug, Args)]
pub struct HistoryExportArgs {
    #[arg(long, value_enum, default_value = "csv")]
    pub format: ExportFormat,
    /// Write here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// A row per point.
    Csv,
    /// A series per object, its points and changes inside.
    Json,
}

#[derive(Debug, Args)]
pub struct HistoryChangesArgs {
    /// The largest p of a change kept: plumb's is corrected for the search and held across
    /// every series (0.005 by default); Otava's (--otava-parity) is not (0.001).
    #[arg(long, value_name = "P")]
    pub alpha: Option<f64>,
    /// Points per window of the search.
    #[arg(long, default_value = "50", value_name = "POINTS")]
    pub window: usize,
    /// Drop changes smaller than this (Otava's magnitude: the larger relative change).
    #[arg(long, default_value = "0", value_name = "FRACTION")]
    pub min_magnitude: f64,
    /// Find change points exactly as Apache Otava 0.8.0 does (its t-test on population
    /// deviations, one-point segments, its merge), to compare with it.
    #[arg(long)]
    pub otava_parity: bool,
    /// Smallest effect size of interest: a change smaller is said, never failed on.
    #[arg(long, default_value = "2%", value_name = "EFFECT")]
    pub sesoi: Fraction,
    /// Write Markdown (a CI job summary or a pull-request comment) instead of a table.
    #[arg(long)]
    pub markdown: bool,
    /// Exit 1 when a change point not seen before is slower by more than the SESOI.
    #[arg(long, value_enum, value_name = "WHAT")]
    pub fail_on: Option<FailOn>,
    /// Confirm every new candidate by re-running its two ends (plumb history confirm):
    /// exit 1 only on a confirmed regression (so it replaces --fail-on).
    #[arg(long, conflicts_with = "fail_on")]
    pub confirm: bool,
    #[command(flatten)]
    pub confirming: crate::revs_args::ConfirmOptions,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// A change point first found now, slower beyond the SESOI, and not acknowledged.
    NewChange,
}

#[derive(Debug, Args)]
pub struct HistoryAckArgs {
    /// The change, as `plumb history changes` names it: SERIES@RUN.
    pub change: String,
    /// Why (kept with it).
    #[arg(long, value_name = "TEXT")]
    pub note: Option<String>,
}
