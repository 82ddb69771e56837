//! A result document as the store keeps it: its JSON, deflated (raw samples and load
//! histograms compress about tenfold), so a history of years stays small.
use crate::HistoryError;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;
use std::io::{Read, Write};

/// A run's identity in the store: its document's digest at its commit (`digest@sha`,
/// `digest@` without one). The same result added twice at one commit (a batch re-run
/// after a failure part-way) is kept once; the same figures at another commit (a series
/// whose values repeat) are another point.
pub(crate) fn run_key(json: &str, commit: Option<&crate::Commit>) -> String {
    format!("{}@{}", digest(json), commit.map_or("", |c| c.sha.as_str()))
}

/// FNV-1a (64 bits) of a document's JSON, in hex. FNV rather than std's hasher, which may
/// change between Rust releases.
pub(crate) fn digest(json: &str) -> String {
    let mut h = fnv::FnvHasher::default();
    std::hash::Hasher::write(&mut h, json.as_bytes());
    format!("{:016x}", std::hash::Hasher::finish(&h))
}

pub(crate) fn compress(json: &str) -> Vec<u8> {
    let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
    e.write_all(json.as_bytes())
        .expect("writing to memory cannot fail");
    e.finish().expect("writing to memory cannot fail")
}

/// The JSON back; an error names what is wrong with the bytes.
pub(crate) fn decompress(bytes: &[u8]) -> Result<String, HistoryError> {
    let mut out = String::new();
    ZlibDecoder::new(bytes)
        .read_to_string(&mut out)
        .map_err(|e| HistoryError::Document(format!("a kept result cannot be inflated: {e}")))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FNV-1a's published test vectors: "" and "a".
    #[test]
    fn the_digest_is_fnv_1a() {
        assert_eq!(digest(""), "cbf29ce484222325");
        assert_eq!(digest("a"), "af63dc4c8601ec8c");
    }

    #[test]
    fn a_document_comes_back_as_it_went_in_and_smaller() {
        let json = format!("{{\"samples\":[{}]}}", vec!["1234567"; 1000].join(","));
        let packed = compress(&json);
        assert!(
            packed.len() * 10 < json.len(),
            "{} of {}",
            packed.len(),
            json.len()
        );
        assert_eq!(decompress(&packed).unwrap(), json);
        assert!(decompress(b"not zlib").is_err());
    }
}
