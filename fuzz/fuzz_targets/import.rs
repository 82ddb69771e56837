//! Other tools' exports (every format plumb imports), found by content or forced by the
//! first byte: an import is a document plumb writes and reads back; a refusal names what
//! was wrong.
#![no_main]
use libfuzzer_sys::fuzz_target;
use plumb_import::{import_text, ForeignTool};
use plumb_model::ResultDocument;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let forced = ForeignTool::ALL
        .get(first as usize % (ForeignTool::ALL.len() + 1))
        .copied();
    match import_text(text, forced) {
        Ok(Some(imported)) => {
            let written = imported.doc.to_json();
            let back = ResultDocument::from_json(&written)
                .unwrap_or_else(|e| panic!("an imported document plumb wrote is refused: {e}"));
            assert_eq!(back.benchmarks.len(), imported.doc.benchmarks.len());
        }
        Ok(None) => {}
        Err(e) => assert!(!e.why.is_empty(), "a refusal without a reason"),
    }
});
