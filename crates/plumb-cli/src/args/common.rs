//! Options several subcommands share: counting events, reading another tool's format, keeping a result in the history, writing exports, the gate.
use clap::Args;
use std::path::PathBuf;

/// The tool whose results the files are, when their content does not say.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Read the results as this tool's: hyperfine, google-benchmark, criterion, go,
    /// pytest-benchmark, jmh, benchmarkdotnet, asv, catch2, gungraun, bmf (found from
    /// the content otherwise).
    #[arg(long, value_name = "NAME", value_parser = plumb_import::ForeignTool::named)]
    pub format: Option<plumb_import::ForeignTool>,
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

/// What exit 1 reads (plumb-model's `Gate`).
#[derive(Debug, Args)]
pub struct GateArgs {
    /// time (the time's verdict; plumb revs' sequential one), cycles (the simulated
    /// estimated cycles', or the CPU's cycles'), or both: time,cycles.
    #[arg(
        long = "gate",
        default_value = "time",
        value_delimiter = ',',
        value_name = "GATE"
    )]
    pub gates: Vec<plumb_model::Gate>,
}
