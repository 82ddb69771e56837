//! The options of `plumb load`: the test's own (plumb-load's `LoadOptions`: targets,
//! rate, duration, gates, TLS, agents), and what the CLI does with its result.
use super::common::SaveArgs;
use super::deploy::LoadCommand;
use clap::Args;
use plumb_load::options::LoadOptions;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct LoadArgs {
    #[command(flatten)]
    pub test: LoadOptions,
    /// A workload file (TOML) declaring what the benchmarks model — keys, mix, records,
    /// sizes, threads, rate, durability, state, the question asked, and production's
    /// traits ([benchmarks."NAME"] for one benchmark's own): recorded in the result and
    /// its red flags checked beside the run's findings (`plumb design check FILE`
    /// checks it without running).
    #[arg(long, value_name = "FILE.toml")]
    pub workload: Option<PathBuf>,
    /// Print the per-second timeline.
    #[arg(long)]
    pub timeline: bool,
    /// Write the result (with whole histograms) as JSON.
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Write a self-contained HTML page with charts (as plumb report).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    #[command(flatten)]
    pub save: SaveArgs,
    #[command(subcommand)]
    pub deploy: Option<LoadCommand>,
}
