//! The `plumb compare` subcommand: two results (or one with its baselines) judged, reported, and the regression gate.
use crate::args::CompareArgs;
use crate::exit::{CliError, Outcome};
use crate::export;
use crate::results_in::load;
use plumb_analysis::{compare_documents, Judging, Side};
use plumb_report::{render_document_comparison, Format};

/// Where the comparison is written, checked before anything is read: never over one of
/// the results compared (issue 24, defect 1).
fn outputs(a: &CompareArgs) -> Result<Vec<plumb_report::targets::ExportTarget>, CliError> {
    let out = export::targets(&[("--export-json", &a.export_json, Format::Json)]);
    if let Some(path) = &a.export_json {
        let inputs = [a.base.clone(), a.new.clone()];
        let what = "results compared";
        export::refuse_overwrite("--export-json", &inputs, path, what, "comparison")?;
    }
    export::check(&out)?;
    Ok(out)
}

pub fn run(a: CompareArgs) -> Result<Outcome, CliError> {
    let out = outputs(&a)?;
    let base = load(&a.base, a.import.format)?;
    let new = load(&a.new, a.import.format)?;
    let (base_path, new_path) = (a.base.display().to_string(), a.new.display().to_string());
    if !base.regions.is_empty() && !new.regions.is_empty() && base.benchmarks.is_empty() {
        crate::exit::print_stdout(&plumb_report::render_region_comparison(&base, &new))?;
        return Ok(Outcome::Done);
    }
    let how = Judging {
        metric: &a.metric,
        level: a.confidence,
        sesoi: a.sesoi,
        question: a.question.unwrap_or_default(),
        question_given: a.question.is_some(),
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
    let mut cmp = compare_documents(base_side, new_side, &how)?;
    let mut store = match crate::store::existing(a.history.clone())? {
        Some(location) => Some(crate::store::open(&location)?),
        None => None,
    };
    let history: Option<&mut dyn plumb_history::HistoryStore> = match &mut store {
        Some(s) => Some(s.as_mut()),
        None => None,
    };
    plumb_changes::widen_by_history(&mut cmp, &base, &new, history)?;
    let report = render_document_comparison(&base, &new, &cmp);
    if let Some(why) = cmp.nothing_compared() {
        let _ = crate::exit::print_stdout(&report);
        return Err(CliError::msg(format!("nothing could be compared: {why}")));
    }
    match out.first() {
        Some(t) if t.is_stdout() => {
            eprint!("{report}");
            crate::exit::print_stdout(&cmp.to_json())?;
        }
        Some(t) => {
            // The comparison reaches its file even when stdout fails.
            let printed = crate::exit::print_stdout(&report);
            plumb_report::targets::write_text(&t.path, &cmp.to_json())?;
            printed?;
        }
        None => crate::exit::print_stdout(&report)?,
    }
    Ok(if cmp.gates_fail(&a.gate.gates)? {
        Outcome::GateFailed
    } else {
        Outcome::Done
    })
}
