//! The `plumb report` subcommand: saved results as one self-contained HTML page, and SVG charts.
use crate::args::ReportArgs;
use crate::compare_cmd::load;
use crate::exit::{self, CliError};
use crate::export;
use plumb_model::ResultDocument;

/// Reads every result first (a bad one is reported before anything is written), then
/// writes the page in one go.
pub fn run(a: ReportArgs) -> Result<i32, CliError> {
    export::refuse_overwrite("--output", &a.results, &a.output, "results", "report")?;
    // Every output is checked before anything is written: the page (`-` for stdout)
    // here, and the charts' directory, made once the results are read (issue 24,
    // defect 9).
    export::check(&export::targets(&[(
        "--output",
        &Some(a.output.clone()),
        plumb_report::Format::Html,
    )]))?;
    let docs: Vec<ResultDocument> = a
        .results
        .iter()
        .map(|p| load(p))
        .collect::<Result<_, _>>()?;
    if let Some(dir) = &a.svg_dir {
        std::fs::create_dir_all(dir).map_err(|e| {
            CliError(format!(
                "--svg-dir: cannot make the directory {}: {e}",
                dir.display()
            ))
        })?;
    }
    let paths: Vec<String> = a.results.iter().map(|p| p.display().to_string()).collect();
    let pairs: Vec<(&str, &ResultDocument)> =
        paths.iter().map(String::as_str).zip(docs.iter()).collect();
    let html = plumb_report::render_html(&pairs);
    if a.output.as_os_str() == "-" {
        exit::print_stdout(&html)?;
    } else {
        std::fs::write(&a.output, &html)
            .map_err(|e| CliError(format!("cannot write {}: {e}", a.output.display())))?;
        eprintln!(
            "plumb: wrote {} ({})",
            a.output.display(),
            plumb_model::format::bytes(plumb_model::quantity::ByteSize(html.len() as u64))
        );
    }
    if let Some(dir) = &a.svg_dir {
        let charts = plumb_report::standalone_charts(&html);
        for (name, svg) in &charts {
            let path = dir.join(name);
            std::fs::write(&path, svg)
                .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
        }
        eprintln!(
            "plumb: wrote {} charts into {}",
            charts.len(),
            dir.display()
        );
    }
    Ok(exit::OK)
}
