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

/// `2`, `2x`, `2×`: twice as fast; otherwise a file whose comparison (the one named
/// after `#`, or its only one) gives the speedup.
fn speedup(given: &str, option: &str) -> Result<Speedup, CliError> {
    let number = given.trim_end_matches(['x', '×']);
    if let Ok(v) = number.parse::<f64>() {
        return if v.is_finite() && v > 0.0 {
            Ok(Speedup::exact(v))
        } else {
            Err(CliError::msg(format!(
                "{option}: a speedup is above 0, not {given}"
            )))
        };
    }
    let (file, bench) = match given.rsplit_once('#') {
        Some((f, b)) => (f, Some(b)),
        None => (given, None),
    };
    let comparisons = comparisons_in(file, option)?;
    let chosen: Vec<_> = comparisons
        .iter()
        .filter(|c| bench.is_none_or(|b| c.candidate == b || c.baseline == b))
        .collect();
    match chosen.as_slice() {
        [c] => Speedup::of(c)
            .ok_or_else(|| CliError::msg(format!("{option}: {file}: the comparison has no ratio"))),
        [] => Err(CliError::msg(format!(
            "{option}: {file} has no comparison{}",
            bench.map_or(String::new(), |b| format!(" of {b:?}"))
        ))),
        many => Err(CliError::msg(format!(
            "{option}: {file} has {} comparisons: choose one with {file}#NAME ({})",
            many.len(),
            many.iter()
                .map(|c| c.candidate.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
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
