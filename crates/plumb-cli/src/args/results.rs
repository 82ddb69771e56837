//! The options of the subcommands that read results: compare, report, show, merge, design, env, completions.
use super::common::{ExportArgs, ImportArgs};
use clap::{Args, Subcommand};
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::Question;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The result to compare against.
    pub base: PathBuf,
    /// The new result.
    pub new: PathBuf,
    /// Smallest effect size of interest, e.g. 2% or 0.02.
    #[arg(long, default_value = "2%", value_name = "EFFECT")]
    pub sesoi: Fraction,

    /// The statistic verdicts compare: best (the minimum, beyond the SESOI plus the clock's
    /// resolution), typical (the median), mean, worst (p99; worst=p99.9). Not given: the
    /// mean, or the median where far-out samples leave it inconclusive (said).
    #[arg(long, value_name = "QUESTION")]
    pub question: Option<Question>,
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
    #[arg(long = "pair", value_name = "OLD=NEW", value_parser = plumb_analysis::parse_pair)]
    pub pairs: Vec<(String, String)>,
    #[command(flatten)]
    pub gate: super::common::GateArgs,
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
