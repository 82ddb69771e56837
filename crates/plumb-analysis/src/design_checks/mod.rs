//! The design layer's red flags: checks of a benchmark's declared `Design` against this
//! machine (its caches, memory, cores) and against production's traits where they are
//! declared. They measure nothing: `plumb design check` runs them alone in milliseconds,
//! and `run`, `load` and the harness attach them beside their other findings. One file
//! per theme: the data against the caches (`data.rs`), the workload's traits
//! (`traits.rs`), the run's shape (`run_shape.rs`).
//!
//! The rule each check follows: a trait is a red flag unless production is declared to
//! share it (sequential keys are fine where production's are sequential too).

mod data;
mod run_shape;
mod traits;

use plumb_model::{Design, Diagnostic, Environment, Finding, Severity};

/// Every red flag `design` raises on this machine, most serious first.
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

#[cfg(test)]
mod tests;
