//! The options of `plumb profile` and `plumb amdahl`.
use clap::Args;
use plumb_model::quantity::Confidence;
use plumb_profile::options::ProfileOptions;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ProfileArgs {
    #[command(flatten)]
    pub what: ProfileOptions,
    /// The directory the outputs go to (made if absent); report.html among them.
    #[arg(short, long, default_value = "plumb-profile", value_name = "DIR")]
    pub out: PathBuf,
    /// Also write the page of plumb report (flame graph and table) to FILE.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
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
