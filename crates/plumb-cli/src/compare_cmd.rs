use crate::args::CompareArgs;
use crate::exit::{self, CliError};
use crate::export;
use plumb_analysis::{compare_documents, Judging, Side};
use plumb_model::ResultDocument;
use plumb_report::{render_document_comparison, Format};
use std::path::Path;

pub fn load(path: &Path) -> Result<ResultDocument, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
    let doc = ResultDocument::from_json(&text)
        .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
    if let Some(v) = doc.migrated_from {
        eprintln!(
            "plumb: note: {} is a version-{v} result; read as version {} (samples as metric columns; see docs/result-format.md)",
            path.display(),
            plumb_model::FORMAT_VERSION
        );
    }
    Ok(doc)
}

pub fn run(a: CompareArgs) -> Result<i32, CliError> {
    let out = export::targets(&[("--export-json", &a.export_json, Format::Json)]);
    export::check(&out)?;
    let base = load(&a.base)?;
    let new = load(&a.new)?;
    let (base_path, new_path) = (a.base.display().to_string(), a.new.display().to_string());
    // Load results carry latency histograms, not metric columns: only the other
    // benchmarks need the metric.
    let measured = |d: &ResultDocument| {
        let mut timed = d.benchmarks.iter().filter(|b| b.load.is_none()).peekable();
        timed.peek().is_none() || timed.any(|b| b.metrics.contains_key(&a.metric))
    };
    if !measured(&base) || !measured(&new) {
        return Err(CliError(format!(
            "--metric {}: not measured in {}",
            a.metric,
            if measured(&base) {
                &new_path
            } else {
                &base_path
            }
        )));
    }
    let how = Judging {
        metric: &a.metric,
        level: a.confidence,
        sesoi: a.sesoi,
        pairs: &a.pairs,
    };
    let base_side = Side {
        doc: &base,
        path: &base_path,
    };
    let new_side = Side {
        doc: &new,
        path: &new_path,
    };
    let cmp = compare_documents(base_side, new_side, &how).map_err(CliError)?;
    if cmp.is_empty() {
        return Err(CliError(format!(
            "no benchmark names in common between {base_path} and {new_path}; pair them with --pair OLD=NEW (base: {}; new: {})",
            names(&base),
            names(&new)
        )));
    }
    let report = render_document_comparison(&base, &new, &cmp);
    if let Some(why) = cmp.nothing_compared() {
        crate::exit::print_stdout(&report);
        return Err(CliError(format!("nothing could be compared: {why}")));
    }
    match out.first() {
        Some(t) if t.is_stdout() => {
            eprint!("{report}");
            crate::exit::print_stdout(&cmp.to_json());
        }
        Some(t) => {
            crate::exit::print_stdout(&report);
            std::fs::write(&t.path, cmp.to_json())
                .map_err(|e| CliError(format!("cannot write {}: {e}", t.path.display())))?;
        }
        None => crate::exit::print_stdout(&report),
    }
    Ok(if cmp.any_slower() {
        exit::REGRESSION
    } else {
        exit::OK
    })
}

fn names(doc: &ResultDocument) -> String {
    let names: Vec<String> = doc
        .benchmarks
        .iter()
        .map(|b| format!("{:?}", b.name))
        .collect();
    names.join(", ")
}
