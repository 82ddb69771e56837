//! `plumb amdahl`: a function's share and its micro-benchmark speedup against the whole.

use crate::args::AmdahlArgs;
use crate::exit::{self, CliError, Outcome};
use plumb_analysis::Speedup;

pub fn run(a: AmdahlArgs) -> Result<Outcome, CliError> {
    let profile = plumb_profile::read_saved(&a.profile)?;
    let micro = speedup(&a.micro, "--micro")?;
    let measured = a
        .macro_
        .as_deref()
        .map(|m| speedup(m, "--macro"))
        .transpose()?;
    let p =
        plumb_analysis::predict_amdahl(&a.function, &profile, micro, measured, a.confidence.get())?;
    exit::print_stdout(&plumb_report::render_amdahl(&p))?;
    Ok(Outcome::Done)
}

/// A number (`2`, `2x`), or a file whose comparison (the one named after `#`, or its
/// only one) gives the speedup.
fn speedup(given: &str, option: &str) -> Result<Speedup, CliError> {
    let said = |e: plumb_analysis::Refused| CliError::msg(format!("{option}: {e}"));
    if let Some(number) = Speedup::given(given) {
        return number.map_err(said);
    }
    let (file, bench) = match given.rsplit_once('#') {
        Some((f, b)) => (f, Some(b)),
        None => (given, None),
    };
    Speedup::chosen(&comparisons_in(file, option)?, file, bench).map_err(said)
}

fn comparisons_in(file: &str, option: &str) -> Result<Vec<plumb_model::Comparison>, CliError> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        CliError::msg(format!(
            "{option}: {given} is neither a number nor a readable file: {e}",
            given = file
        ))
    })?;
    if let Ok(doc) = plumb_model::ComparisonDocument::from_json(&text) {
        return Ok(doc.comparisons);
    }
    let doc = plumb_model::ResultDocument::from_json(&text)
        .map_err(|e| CliError::msg(format!("{option}: {file}: {e}")))?;
    Ok(doc.comparisons)
}
