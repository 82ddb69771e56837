//! The `plumb merge` subcommand: load results of agents that ran together merged into one file.
use crate::args::MergeArgs;
use crate::exit::{self, CliError, Outcome};
use crate::export;
use crate::results_in::load;
use plumb_loadtest::merged_document;
use plumb_model::{Invocation, ResultDocument};
use plumb_report::targets::ExportTarget;
use plumb_report::{render_load, Format};

pub fn run(a: MergeArgs) -> Result<Outcome, CliError> {
    let targets = [ExportTarget::new(
        "--output",
        a.output.clone(),
        Format::Json,
    )];
    export::refuse_overwrite("--output", &a.inputs, &a.output, "inputs", "merge")?;
    export::check(&targets)?;
    let docs: Vec<ResultDocument> = a
        .inputs
        .iter()
        .map(|p| load(p, None))
        .collect::<Result<_, _>>()?;
    let paths: Vec<String> = a.inputs.iter().map(|p| p.display().to_string()).collect();
    let merged = merged_document(&docs, &paths, a.allow_disjoint, Invocation::current())?;
    export::write_all(&targets, &merged)?;
    let mut text = format!(
        "Merged {} results into {}\n\n",
        docs.len(),
        a.output.display()
    );
    for b in &merged.benchmarks {
        text.push_str(&render_load(b, false));
    }
    exit::print_stdout(&text)?;
    Ok(Outcome::Done)
}
