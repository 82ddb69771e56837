//! `.folded` stack text (FlameGraph's format, read by `plumb profile-diff`): never a
//! panic, a refusal names the line, and what is read sums to the counts written.
#![no_main]
use libfuzzer_sys::fuzz_target;
use plumb_model::FoldedStack;

fuzz_target!(|text: &str| {
    match plumb_profile::folded::parse(text) {
        Ok(stacks) => {
            let written = FoldedStack::text(&stacks);
            let back = plumb_profile::folded::parse(&written).expect("written stacks read back");
            assert_eq!(back, stacks);
        }
        Err(e) => assert!(e.to_string().contains("line"), "{e}"),
    }
});
