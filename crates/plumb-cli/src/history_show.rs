//! `plumb history show` (one series: a trend line, its points, its recorded changes) and
//! `plumb history export` (every point as CSV or JSON, the changes recorded with them):
//! the store read, plumb-report's history views printed or written.
use crate::args::{ExportFormat, HistoryExportArgs, HistoryShowArgs};
use crate::exit::{self, CliError, Outcome};
use plumb_history::HistoryStore;
use plumb_report::history::{history_csv, history_json, render_series};

pub fn show(store: &mut dyn HistoryStore, args: &HistoryShowArgs) -> Result<Outcome, CliError> {
    let series = store.find_series(&args.series)?;
    let record = store.record_of(series)?;
    exit::print_stdout(&render_series(&record))?;
    Ok(Outcome::Done)
}

pub fn export(store: &mut dyn HistoryStore, args: &HistoryExportArgs) -> Result<Outcome, CliError> {
    let records = store.records()?;
    let text = match args.format {
        ExportFormat::Csv => history_csv(&records),
        ExportFormat::Json => history_json(&records),
    };
    let out = args.output.as_deref().unwrap_or(std::path::Path::new("-"));
    plumb_report::targets::write_text(out, &text)?;
    Ok(Outcome::Done)
}
