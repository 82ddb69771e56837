//! dhat's JSON (`plumb profile --alloc`'s allocation sites): never a panic; a refusal says
//! why.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Err(e) = plumb_profile::dhat::parse(text, None) {
        assert!(!e.to_string().is_empty());
    }
});
