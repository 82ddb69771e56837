//! A result document as the store keeps it: its JSON, deflated (raw samples and load
//! histograms compress about tenfold), so a history of years stays small.
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;
use std::io::{Read, Write};

pub(crate) fn compress(json: &str) -> Vec<u8> {
    let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
    e.write_all(json.as_bytes())
        .expect("writing to memory cannot fail");
    e.finish().expect("writing to memory cannot fail")
}

/// The JSON back; an error names what is wrong with the bytes.
pub(crate) fn decompress(bytes: &[u8]) -> Result<String, String> {
    let mut out = String::new();
    ZlibDecoder::new(bytes)
        .read_to_string(&mut out)
        .map_err(|e| format!("a kept result cannot be inflated: {e}"))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

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
