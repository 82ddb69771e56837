//! plumb's own result documents (every format version): what is read is written back and
//! read again to the same document; what is refused is refused with a message.
#![no_main]
use libfuzzer_sys::fuzz_target;
use plumb_model::ResultDocument;

fuzz_target!(|text: &str| {
    match ResultDocument::from_json(text) {
        Ok(doc) => {
            let written = doc.to_json();
            let again = ResultDocument::from_json(&written)
                .unwrap_or_else(|e| panic!("a document plumb wrote is refused: {e}"));
            assert_eq!(
                again.to_json(),
                written,
                "read → write → read changed the document"
            );
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
