//! The options of `plumb profile` and `plumb amdahl`.
use clap::{Args, ValueEnum};
use plumb_model::quantity::{Confidence, Duration};
use std::path::PathBuf;

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
