//! cachegrind's and callgrind's output files as plumb reads their totals: never a panic,
//! and a refusal with a reason.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Err(e) = plumb_counters::cachegrind::parse_totals(text) {
        assert!(!e.to_string().is_empty());
    }
});
