//! The `plumb compare` subcommand, and reading a result file (plumb's own, or an imported export).
use crate::args::CompareArgs;
use crate::exit::{self, CliError};
use crate::export;
use plumb_analysis::{compare_documents, complete_statistics, Judging, Side};
use plumb_import::ForeignTool;
use plumb_model::{ModelError, ResultDocument};
use plumb_report::{render_document_comparison, Format};
use std::path::Path;

/// Reads a result file: plumb's own (any version it reads), or another tool's export or
/// output directory it imports, found from the content or named by `forced`, saying which
/// when it is not plumb's. Statistics a result lacks are completed.
pub fn load(path: &Path, forced: Option<ForeignTool>) -> Result<ResultDocument, CliError> {
    // A directory is another tool's output (criterion's target/criterion); a format
    // named by --format is read as that tool's, whatever the content looks like.
    if path.is_dir() || forced.is_some() {
        let failed = |e: &dyn std::fmt::Display| CliError(format!("{}: {e}", path.display()));
        let imported = plumb_import::import_path(path, forced).map_err(|e| failed(&e))?;
        let mut doc = said(path, imported.ok_or_else(|| failed(&NOT_IMPORTED))?);
        complete_statistics(&mut doc);
        return Ok(doc);
    }
    parse(path, &read(path)?)
}

/// `--format NAME`: the tool whose results a file is, when its content does not say.
pub fn import_format(name: &str) -> Result<ForeignTool, String> {
    ForeignTool::by_key(name).ok_or_else(|| {
        let names: Vec<&str> = ForeignTool::ALL.iter().map(|t| t.key()).collect();
        format!(
            "unknown format {name:?}; plumb imports {}",
            names.join(", ")
        )
    })
}

/// An imported result, its notes said: what it is, what it carried, and each part of it
/// that was not taken.
fn said(path: &Path, i: plumb_import::Imported) -> ResultDocument {
    eprintln!(
        "plumb: note: {} is {} export: read are {}; no machine record beyond its own, no run order",
        path.display(),
        plumb_import::a_or_an(i.tool.name()),
        i.tool.carries()
    );
    for note in &i.notes {
        eprintln!("plumb: note: {}: {note}", path.display());
    }
    let summaries: Vec<&str> = (i.doc.benchmarks.iter())
        .filter(|b| plumb_model::Carried::of(b) == plumb_model::Carried::Summary)
        .map(|b| b.name.as_str())
        .collect();
    if !summaries.is_empty() {
        eprintln!(
            "plumb: note: {}: {} of {} benchmarks carry {}'s own summary only ({}): verdicts from what a summary holds, no checks of samples",
            path.display(),
            summaries.len(),
            i.doc.benchmarks.len(),
            i.tool.name(),
            listed(&summaries)
        );
    }
    i.doc
}

/// Names as a short list: the first three, then how many more.
fn listed(names: &[&str]) -> String {
    match names {
        [a] => (*a).to_string(),
        [first @ .., last] if names.len() <= 3 => format!("{} and {last}", first.join(", ")),
        _ => format!("{}, and {} more", names[..3].join(", "), names.len() - 3),
    }
}

/// A file's text, or an error naming it.
pub fn read(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))
}

const NOT_IMPORTED: &str = "not a plumb result, nor any format plumb imports (hyperfine, Google Benchmark, criterion, Go, pytest-benchmark, JMH, BenchmarkDotNet, asv, Catch2 XML, Bencher Metric Format; --format names one)";

/// A result from the `text` read from `path`, as `load` reads it.
pub fn parse(path: &Path, text: &str) -> Result<ResultDocument, CliError> {
    let failed = |e: &dyn std::fmt::Display| CliError(format!("{}: {e}", path.display()));
    let mut doc = match ResultDocument::from_json(text) {
        Ok(doc) => doc,
        Err(e @ (ModelError::Foreign { .. } | ModelError::NotJson(_))) => {
            match plumb_import::read_text(text, None, Some(path)).map_err(|e| failed(&e))? {
                Some(imported) => said(path, imported),
                None if matches!(e, ModelError::NotJson(_)) => return Err(failed(&e)),
                None => return Err(failed(&NOT_IMPORTED)),
            }
        }
        Err(e) => return Err(failed(&e)),
    };
    if let Some(v) = doc.migrated_from {
        eprintln!(
            "plumb: note: {} is a version-{v} result; read as version {} ({}; see docs/result-format.md)",
            path.display(),
            plumb_model::FORMAT_VERSION,
            match v {
                1 => "samples as metric columns, measured values typed; findings keep their recorded words",
                2 => "measured values typed: times in ns, moments in RFC 3339; findings keep their recorded words",
                _ => "findings keep their recorded words (newer ones carry typed evidence)",
            }
        );
    }
    complete_statistics(&mut doc);
    Ok(doc)
}

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

pub fn run(a: CompareArgs) -> Result<i32, CliError> {
    let out = outputs(&a)?;
    let base = load(&a.base, a.import.format)?;
    let new = load(&a.new, a.import.format)?;
    let (base_path, new_path) = (a.base.display().to_string(), a.new.display().to_string());
    if !base.regions.is_empty() && !new.regions.is_empty() && base.benchmarks.is_empty() {
        crate::exit::print_stdout(&plumb_report::render_region_comparison(&base, &new))?;
        return Ok(exit::OK);
    }
    for (doc, path) in [(&base, &base_path), (&new, &new_path)] {
        if !measures(doc, &a.metric) {
            return Err(CliError(format!(
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
    let mut cmp = compare_documents(base_side, new_side, &how).map_err(CliError)?;
    crate::compare_noise::apply(&mut cmp, &base, &new, a.history.clone())?;
    if cmp.is_empty() {
        return Err(CliError(format!(
            "no benchmark names in common between {base_path} and {new_path}; pair them with --pair OLD=NEW (base: {}; new: {})",
            names(&base),
            names(&new)
        )));
    }
    let report = render_document_comparison(&base, &new, &cmp);
    if let Some(why) = cmp.nothing_compared() {
        let _ = crate::exit::print_stdout(&report);
        return Err(CliError(format!("nothing could be compared: {why}")));
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
                .map_err(|e| CliError(format!("cannot write {}: {e}", t.path.display())))?;
            printed?;
        }
        None => crate::exit::print_stdout(&report)?,
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
