//! The options of `plumb history` and its subcommands.
use super::common::ImportArgs;
use super::revs::HistoryConfirmArgs;
use clap::{Args, Subcommand, ValueEnum};
use plumb_changes::ConfirmOptions;
use std::path::PathBuf;

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
    Confirm(Box<HistoryConfirmArgs>),
}

#[derive(Debug, Args)]
pub struct HistoryAddArgs {
    /// Result files.
    #[arg(required_unless_present = "manifest")]
    pub results: Vec<PathBuf>,
    /// The commit they were measured at, when not the one the file records (asv,
    /// pytest-benchmark) nor the working directory's HEAD.
    #[arg(long, value_name = "SHA")]
    pub commit: Option<String>,
    /// A backfill in one process: a file of `COMMIT FILE` lines (files relative to it),
    /// each result kept at its own commit.
    #[arg(long, value_name = "FILE", conflicts_with = "commit")]
    pub manifest: Option<PathBuf>,
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
    /// deviations, one-point segments, its merge), to compare with it: kept in the store
    /// marked as Otava's, beside plumb's own; gates and confirmations read plumb's.
    #[arg(long, conflicts_with_all = ["fail_on", "confirm"])]
    pub otava_parity: bool,
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
    pub confirming: ConfirmOptions,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// A change point first found now, slower beyond the SESOI, and not acknowledged.
    NewChange,
}

#[derive(Debug, Args)]
pub struct HistoryAckArgs {
    /// The change, as `plumb history changes` names it: SERIES@RUN.
    #[arg(value_parser = plumb_history::parse_change_id, value_name = "SERIES@RUN")]
    pub change: (i64, i64),
    /// Why (kept with it).
    #[arg(long, value_name = "TEXT")]
    pub note: Option<String>,
}
