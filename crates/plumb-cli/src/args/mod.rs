//! The command line of `plumb`: every subcommand and its options, as clap definitions
//! (one file per subcommand's options), and the parser that reads them.

mod agents;
mod common;
mod deploy;
mod history;
mod load;
mod profile;
mod results;
mod revs;
mod run;

pub use agents::*;
use clap::{Parser, Subcommand, ValueEnum};
pub use common::*;
pub use deploy::*;
pub use history::*;
pub use load::*;
pub use profile::*;
pub use results::*;
pub use revs::*;
pub use run::*;

/// Parses the command line. Every option that takes one value takes it even when it
/// starts with '-': `--rate -5` or `--sesoi -2%` reaches the value's own parser, which
/// says it is out of range, instead of clap calling `-5` an unexpected argument and
/// suggesting `-- -5`, which would make it a command to benchmark.
pub fn parse() -> Cli {
    try_parse_from(std::env::args_os()).unwrap_or_else(|e| e.exit())
}

/// Parses `args` (the program's name first) as `parse` does; clap's error (help and
/// version included) when they do not parse.
pub fn try_parse_from<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::{CommandFactory, FromArgMatches};
    let command = values_may_start_with_a_dash(Cli::command());
    Cli::from_arg_matches(&command.try_get_matches_from(args)?)
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
        after_help = "Example:\n  plumb compare main.json branch.json --sesoi 3%\n\nExit codes: 0 nothing slower, 1 something slower by more than the SESOI (by --gate: time, cycles, or both), 2 bad input or a gate on cycles nobody measured."
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
    Coordinate(Box<CoordinateArgs>),
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
    Simulate(plumb_load::options::SimulateOptions),
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
        after_help = "Example:\n  plumb revs origin/main HEAD --build 'cargo build --release' -- ./target/release/app input.txt\n\nExit codes: 0 not slower (faster, equivalent, or unknown at the cap: said), 1 B slower by more than the SESOI (by --gate: time, cycles, or both), 2 bad input, a failed build, a failing command or cycles that could not be simulated under --gate cycles, 128 + N stopped by signal N."
    )]
    Revs(Box<RevsArgs>),
    /// Check a benchmark's declared design (a workload file) for the red flags that make
    /// benchmarks lie — data that fits in cache, sequential keys, one thread, no fsync,
    /// a closed loop asked for p99 — against this machine. Measures nothing.
    #[command(
        after_help = "Example:\n  plumb design check workload.toml\n\nExit codes: 0 no red flags, 1 red flags (warnings) found, 2 bad input."
    )]
    Design(DesignArgs),
}
