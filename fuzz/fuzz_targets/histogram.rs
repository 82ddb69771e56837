//! Latency histograms as plumb stores them in a load result (base64 of HdrHistogram's
//! V2 deflate encoding): what decodes encodes and decodes to the same histogram; what is
//! refused says why.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    match plumb_model::decode_histogram(text) {
        Ok(h) => {
            let again = plumb_model::decode_histogram(&plumb_model::encode_histogram(&h))
                .expect("an encoded histogram decodes");
            assert!(again == h, "decode → encode → decode changed the histogram");
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
