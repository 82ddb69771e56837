use crate::args::CompareArgs;
use crate::exit::{self, CliError};
use plumb_analysis::compare_documents;
use plumb_model::ResultDocument;
use plumb_report::render_document_comparison;
use std::path::Path;

pub fn load(path: &Path) -> Result<ResultDocument, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
    ResultDocument::from_json(&text).map_err(|e| CliError(format!("{}: {e}", path.display())))
}

pub fn run(a: CompareArgs) -> Result<i32, CliError> {
    let base = load(&a.base)?;
    let new = load(&a.new)?;
    let cmp = compare_documents(&base, &new, a.confidence, a.sesoi);
    if cmp.is_empty() {
        return Err(CliError(format!(
            "no benchmark names in common between {} and {}",
            a.base.display(),
            a.new.display()
        )));
    }
    crate::exit::print_stdout(&render_document_comparison(
        &base,
        &new,
        &cmp,
        a.confidence,
        a.sesoi,
    ));
    if let Some(path) = &a.export_json {
        let load: Vec<serde_json::Value> = cmp
            .load
            .iter()
            .map(|(name, r)| match r {
                Ok(rows) => serde_json::json!({ "benchmark": name, "percentiles": rows }),
                Err(why) => serde_json::json!({ "benchmark": name, "not_compared": why }),
            })
            .collect();
        let json = serde_json::to_string_pretty(&serde_json::json!({
            "comparisons": cmp.comparisons,
            "load": load,
        }))
        .expect("serialisable");
        std::fs::write(path, json)
            .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(if cmp.any_slower() {
        exit::REGRESSION
    } else {
        exit::OK
    })
}
