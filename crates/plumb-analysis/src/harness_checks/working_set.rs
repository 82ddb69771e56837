//! The working-set check: a declared working set larger than the last-level cache, so
//! the benchmark measures memory, not cache.
use plumb_model::finding::WorkingSet;
use plumb_model::{Benchmark, Diagnostic, Environment, Severity};

pub fn check(b: &Benchmark, env: &Environment) -> Option<Diagnostic> {
    let working_set = b.working_set?;
    let last = env.last_level_cache()?;
    (working_set > last.size).then(|| {
        let finding = WorkingSet {
            working_set,
            cache: format!("L{} cache", last.level),
            cache_size: last.size,
        };
        Diagnostic::new(Severity::Warning, finding)
    })
}
