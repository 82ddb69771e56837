//! The `plumb report` subcommand: saved results as one self-contained HTML page, and SVG charts.
use crate::args::ReportArgs;
use crate::exit::{CliError, Outcome};
use crate::export;
use crate::results_in::{load, parse};
use plumb_import::read_file as read;
use plumb_model::{ComparisonDocument, ResultDocument};

/// Reads every result first (a bad one is reported before anything is written), then
/// writes the page in one go.
pub fn run(a: ReportArgs) -> Result<Outcome, CliError> {
    if let Some(history) = &a.history {
        return crate::history_report::run(history, &a);
    }
    export::refuse_overwrite("--output", &a.results, &a.output, "results", "report")?;
    // Every output is checked before anything is written: the page (`-` for stdout)
    // here, and the charts' directory, made once the results are read (issue 24,
    // defect 9).
    export::check(&export::targets(&[(
        "--output",
        &Some(a.output.clone()),
        plumb_report::Format::Html,
    )]))?;
    let mut docs: Vec<(String, ResultDocument)> = Vec::new();
    let mut comparisons: Vec<ComparisonDocument> = Vec::new();
    for path in &a.results {
        // Another tool's directory, or a file named as another tool's, is a result.
        if path.is_dir() || a.import.format.is_some() {
            docs.push((path.display().to_string(), load(path, a.import.format)?));
            continue;
        }
        // Each file read once: a saved comparison, or else a result.
        let text = read(path)?;
        match ComparisonDocument::if_comparison(&text) {
            Some(c) => {
                comparisons.push(c.map_err(|e| CliError::msg(format!("{}: {e}", path.display())))?)
            }
            None => docs.push((path.display().to_string(), parse(path, &text)?)),
        }
    }
    if let [(base_path, base), (new_path, new)] = docs.as_slice() {
        let side = |doc, path| plumb_analysis::Side { doc, path };
        comparisons.extend(plumb_analysis::compare_two(
            side(base, base_path),
            side(new, new_path),
        ));
    }
    let svg_dir = (a.svg_dir.as_deref())
        .map(|d| plumb_report::targets::OutputDir::prepare("--svg-dir", d))
        .transpose()?;
    let pairs: Vec<(&str, &ResultDocument)> = docs.iter().map(|(p, d)| (p.as_str(), d)).collect();
    let html = plumb_report::render_html_with(&pairs, &comparisons);
    let size = plumb_model::format::bytes(plumb_model::quantity::ByteSize(html.len() as u64));
    crate::export::write_page(&a.output, &html, &size)?;
    if let Some(dir) = &svg_dir {
        let charts = plumb_report::standalone_charts(&html);
        dir.write_files(&charts)?;
        let shown = dir.path().display();
        eprintln!("plumb: wrote {} charts into {shown}", charts.len());
    }
    Ok(Outcome::Done)
}
