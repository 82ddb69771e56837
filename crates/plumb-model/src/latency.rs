//! The encoding of a whole latency histogram inside a result: HdrHistogram's V2 deflate
//! serialisation in base64, readable by every HdrHistogram implementation. Defined here,
//! with the model, because it is part of the format.

use crate::LatencyDistribution;
use base64::Engine;
use hdrhistogram::serialization::{Deserializer, Serializer, V2DeflateSerializer};
use hdrhistogram::Histogram;

/// Labels and percentiles of `LatencyDistribution::percentiles_us`.
pub const LATENCY_PERCENTILES: [(&str, f64); 5] = [
    ("p50", 50.0),
    ("p90", 90.0),
    ("p99", 99.0),
    ("p99.9", 99.9),
    ("p99.99", 99.99),
];

impl LatencyDistribution {
    /// The distribution of a histogram of microseconds.
    pub fn from_histogram(h: &Histogram<u64>) -> Self {
        let mut bytes = Vec::new();
        V2DeflateSerializer::new()
            .serialize(h, &mut bytes)
            .expect("serialising to memory cannot fail");
        let empty = h.is_empty();
        LatencyDistribution {
            count: h.len(),
            percentiles_us: LATENCY_PERCENTILES
                .iter()
                .map(|(label, p)| {
                    let v = if empty {
                        0.0
                    } else {
                        h.value_at_quantile(p / 100.0) as f64
                    };
                    (label.to_string(), v)
                })
                .collect(),
            max_us: if empty { 0.0 } else { h.max() as f64 },
            mean_us: if empty { 0.0 } else { h.mean() },
            hdr_base64: base64::engine::general_purpose::STANDARD.encode(bytes),
        }
    }

    /// The histogram inside.
    pub fn histogram(&self) -> Result<Histogram<u64>, String> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&self.hdr_base64)
            .map_err(|e| format!("latency histogram is not base64: {e}"))?;
        Deserializer::new()
            .deserialize(&mut bytes.as_slice())
            .map_err(|e| format!("latency histogram does not decode: {e:?}"))
    }
}
