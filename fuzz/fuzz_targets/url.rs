//! Load targets: a URL on the command line (parsed without the network) and a
//! `--targets` file. Never a panic; what is parsed has a path starting with `/` and no
//! control characters; a refusal says what was wrong.
#![no_main]
use libfuzzer_sys::fuzz_target;
use plumb_load::http::{targets_file, Target};

fuzz_target!(|text: &str| {
    match Target::parse(text) {
        Ok(t) => {
            assert!(t.path.starts_with('/'), "{text:?} → path {:?}", t.path);
            assert!(
                !t.path.bytes().any(|b| b <= b' ' || b == 0x7f),
                "{:?}",
                t.path
            );
            assert!(
                t.port > 0 && !t.host.is_empty(),
                "{text:?} → {}:{}",
                t.host,
                t.port
            );
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    if let Err(e) = targets_file::parse_targets(text) {
        assert!(!e.to_string().is_empty());
    }
});
