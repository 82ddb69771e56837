//! The design layer's red flags: checks of a benchmark's declared `Design` against this
//! machine (its caches, memory, cores) and against production's traits where they are
//! declared. They measure nothing: `plumb design check` runs them alone in milliseconds,
//! and `run`, `load` and the harness attach them beside their other findings. One file
//! per theme: the data against the caches (`data.rs`), the workload's traits
//! (`traits.rs`), the run's shape (`run_shape.rs`).
//!
//! The rule each check follows: a trait is a red flag unless production is declared to
//! share it (sequential keys are fine where production's are sequential too).

mod against_run;
mod data;
mod run_shape;
mod traits;

pub use against_run::{against_run, RunFacts};

use plumb_model::{Design, Diagnostic, Environment, Finding, ResultDocument, Severity};

/// Every red flag `design` raises on this machine, most serious first.
/// A workload file's designs checked, the shared one first then each benchmark's own
/// (`benchmark "NAME"`), each with its red flags.
pub fn check_workload(
    workload: &plumb_model::WorkloadFile,
    env: &Environment,
) -> Vec<(String, Design, Vec<Diagnostic>)> {
    let mut designs = vec![("design".to_string(), workload.design.clone())];
    for name in workload.benchmarks.keys() {
        designs.push((format!("benchmark {name:?}"), workload.for_benchmark(name)));
    }
    designs
        .into_iter()
        .map(|(name, d)| {
            let found = design_checks(&d, env);
            (name, d, found)
        })
        .collect()
}

pub fn design_checks(design: &Design, env: &Environment) -> Vec<Diagnostic> {
    let production = design.production.as_deref();
    let warn = |f: Option<Finding>| f.map(|f| Diagnostic::new(Severity::Warning, f));
    let info = |f: Option<Finding>| f.map(|f| Diagnostic::new(Severity::Info, f));
    let mut out: Vec<Diagnostic> = [
        warn(data::working_set_in_cache(design, production, env)),
        warn(data::working_set_in_memory(design, production, env)),
        warn(data::hot_set_in_cache(design, production, env)),
        warn(traits::sequential_keys(design, production)),
        warn(traits::single_thread(design, production)),
        warn(traits::fixed_size_values(design, production)),
        warn(traits::no_durability(design, production)),
        warn(traits::clean_state(design, production)),
        warn(run_shape::too_short_to_steady(design)),
        info(run_shape::no_warmup(design)),
        warn(run_shape::closed_loop_percentile(design)),
        warn(run_shape::too_few_for_percentile(design)),
        warn(run_shape::concurrency_below_little(design)),
        warn(run_shape::generator_on_target(design)),
        info(run_shape::one_launch(design)),
    ]
    .into_iter()
    .flatten()
    .collect();
    out.sort_by_key(|d| std::cmp::Reverse(d.severity));
    out
}

/// Every benchmark of `doc` that declares a design gets its red flags (against the
/// document's machine) and the checks of the design against the run, beside its other
/// findings; a code the run's own checks already made is not said twice.
pub fn attach_design_findings(doc: &mut ResultDocument) {
    for b in &mut doc.benchmarks {
        let Some(design) = b.design.as_deref() else {
            continue;
        };
        let mut found = design_checks(design, &doc.environment);
        if !b.samples.is_empty() || b.load().is_some() {
            // Before a run the declared shape is all there is; after it, the run's.
            found.retain(|d| d.code().as_str() != "too-few-for-percentile");
            found.extend(against_run(design, &RunFacts::of(b, &doc.settings)));
        }
        for d in found {
            if !b.diagnostics.iter().any(|x| x.code() == d.code()) {
                b.diagnostics.push(d);
            }
        }
    }
}

#[cfg(test)]
mod tests;
