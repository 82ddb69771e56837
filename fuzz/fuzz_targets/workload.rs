//! Workload files (`--workload FILE.toml`): never a panic; a refusal says what was wrong.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Err(e) = plumb_model::parse_workload_file(text) {
        assert!(!e.to_string().is_empty());
    }
});
