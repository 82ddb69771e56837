//! The options of `plumb coordinate`: the coordinator's (plumb-load's
//! `CoordinateOptions`) and where the merged result goes.
use clap::Args;
use plumb_load::options::CoordinateOptions;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct CoordinateArgs {
    #[command(flatten)]
    pub coordinator: CoordinateOptions,
    /// Where the merged result goes; each agent's own result is kept beside it
    /// (FILE.agent-I.json), so `plumb merge` can make it again.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
}
