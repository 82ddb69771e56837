//! `plumb report --history`: the store's series drawn on one page — each result with its
//! interval at its commit, each change point the last analysis recorded marked with its
//! commits, change and status.
use crate::args::ReportArgs;
use crate::exit::{CliError, Outcome};
use plumb_report::history::trend_series;
use plumb_report::history_page;

pub fn run(history: &str, a: &ReportArgs) -> Result<Outcome, CliError> {
    crate::export::check(&crate::export::targets(&[(
        "--output",
        &Some(a.output.clone()),
        plumb_report::Format::Html,
    )]))?;
    let given = Some(history.to_string()).filter(|h| !h.is_empty());
    let location = crate::store::to_read(given)?;
    crate::store::refuse_store("--output", &location, &a.output)?;
    let mut store = crate::store::open(&location)?;
    let records = store.records()?;
    let series: Vec<_> = records.iter().map(trend_series).collect();
    let method = "change points as the last `plumb history changes` recorded them";
    let html = history_page(&series, &location.shown(), method);
    crate::export::write_page(&a.output, &html, &format!("{} series", series.len()))?;
    Ok(Outcome::Done)
}
