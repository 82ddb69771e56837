//! `perf script` output as plumb reads it: frame lines demangled, folded into stacks by
//! inferno and cut to regions; folded stacks written as `.folded` text are read back to
//! the same stacks.
#![no_main]
use libfuzzer_sys::fuzz_target;
use plumb_model::FoldedStack;
use plumb_profile::{folded, script};

fuzz_target!(|text: &str| {
    let prepared = script::prepare(text);
    let regions = ["plumb_region".to_string()];
    let Ok(stacks) = folded::collapse(&prepared.text, "cpu-clock", &regions) else {
        return;
    };
    let written = FoldedStack::text(&stacks);
    let back = folded::parse(&written).unwrap_or_else(|e| panic!("{written:?}: {e}"));
    assert_eq!(back.len(), stacks.len());
    assert_eq!(folded::total(&back), folded::total(&stacks));
});
