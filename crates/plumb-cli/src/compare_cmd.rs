//! The `plumb compare` subcommand: two results (or one with its baselines) judged, reported, and the regression gate.
use crate::args::CompareArgs;
use crate::exit::{CliError, Outcome};
use crate::export;
use crate::results_in::load;
use plumb_analysis::{compare_documents, Judging, Side};
use plumb_model::ResultDocument;
use plumb_report::{render_document_comparison, Format};

/// Whether `doc` measured `metric`. Load results carry latency histograms, not metric
/// columns: only the other benchmarks need the metric; a benchmark with only a
/// simulator's counts (gungraun's) is judged by them.
fn measures(doc: &ResultDocument, metric: &plumb_model::Metric) -> bool {
    let mut timed = doc
        .benchmarks
        .iter()
        .filter(|b| b.load().is_none())
        .peekable();
    timed.peek().is_none()
        || timed.any(|b| {
            let counted_only = b.samples.is_empty() && b.reported.is_empty();
            let simulated = b.simulated.as_ref().filter(|_| counted_only);
            b.metrics.contains_key(metric)
                || b.reported.contains_key(metric)
                || simulated.is_some_and(|s| {
                    *metric == plumb_model::Metric::WallTime || s.metrics.contains_key(metric)
                })
        })
}

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
    for (doc, path) in [(&base, &base_path), (&new, &new_path)] {
        if !measures(doc, &a.metric) {
            return Err(CliError::msg(format!(
                "--metric {}: not measured in {path}",
                a.metric
            )));
        }
    }
    let how = Judging {
        metric: &a.metric,
        level: a.confidence,
        sesoi: a.sesoi,
        question: a.question,
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
    crate::compare_noise::apply(&mut cmp, &base, &new, a.history.clone())?;
    if cmp.is_empty() {
        return Err(CliError::msg(format!(
            "no benchmark names in common between {base_path} and {new_path}; pair them with --pair OLD=NEW (base: {}; new: {})",
            names(&base),
            names(&new)
        )));
    }
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
            std::fs::write(&t.path, cmp.to_json())
                .map_err(|e| CliError::msg(format!("cannot write {}: {e}", t.path.display())))?;
            printed?;
        }
        None => crate::exit::print_stdout(&report)?,
    }
    Ok(if cmp.any_slower() {
        Outcome::GateFailed
    } else {
        Outcome::Done
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
