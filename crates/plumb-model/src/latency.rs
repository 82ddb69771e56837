//! The encoding of a whole latency histogram inside a result: HdrHistogram's V2 deflate
//! serialisation in base64, readable by every HdrHistogram implementation. Defined here,
//! with the model, because it is part of the format.

use crate::quantity::Duration;
use crate::LatencyDistribution;
#[cfg(feature = "histograms")]
use base64::Engine;
#[cfg(feature = "histograms")]
use hdrhistogram::serialization::{Deserializer, Serializer, V2DeflateSerializer};
#[cfg(feature = "histograms")]
use hdrhistogram::Histogram;

/// Labels and percentiles of `LatencyDistribution::percentiles`.
pub const LATENCY_PERCENTILES: [(&str, f64); 5] = [
    ("p50", 50.0),
    ("p90", 90.0),
    ("p99", 99.0),
    ("p99.9", 99.9),
    ("p99.99", 99.99),
];

/// The value at `percentile` (0 to 100) of `h`: the highest value equivalent to the one
/// whose rank is ⌈n · percentile / 100⌉, the rank computed in integers. hdrhistogram's
/// `value_at_quantile(0.999)` works in floating point, where 99.9 / 100 is
/// 0.9990000000000001: at a count that is a multiple of 1000 its p99.9 is the next rank.
/// Zero for an empty histogram.
#[cfg(feature = "histograms")]
pub fn value_at_percentile(h: &Histogram<u64>, percentile: f64) -> u64 {
    let n = u128::from(h.len());
    if n == 0 {
        return 0;
    }
    // The percentile as an exact fraction of its decimal text: 99.9 → 999 / 1000.
    let (digits, exp) =
        crate::quantity::decimal::parse_exact(&percentile.to_string()).unwrap_or((100, 0));
    let den = 10u128.pow(2 + exp.unsigned_abs() * u32::from(exp < 0));
    let num = digits * 10u128.pow(if exp > 0 { exp as u32 } else { 0 });
    let rank = (n * num).div_ceil(den).clamp(1, n);
    let mut seen = 0u128;
    for v in h.iter_recorded() {
        seen += u128::from(v.count_at_value());
        if seen >= rank {
            return h.highest_equivalent(v.value_iterated_to());
        }
    }
    h.max()
}

impl LatencyDistribution {
    /// The distribution of a histogram of microseconds.
    #[cfg(feature = "histograms")]
    pub fn from_histogram(h: &Histogram<u64>) -> Self {
        let empty = h.is_empty();
        LatencyDistribution {
            count: h.len(),
            percentiles: LATENCY_PERCENTILES
                .iter()
                .map(|(label, p)| {
                    let v = if empty { 0 } else { value_at_percentile(h, *p) };
                    (label.to_string(), Duration::from_micros(v))
                })
                .collect(),
            max: Duration::from_micros(if empty { 0 } else { h.max() }),
            mean: Duration::from_nanos_f64(if empty { 0.0 } else { h.mean() * 1e3 }),
            hdr_base64: encode_histogram(h),
        }
    }

    /// The headline percentile `label` (`p50` … `p99.99`), if it was kept.
    pub fn percentile(&self, label: &str) -> Option<Duration> {
        self.percentiles.get(label).copied()
    }

    /// The histogram inside.
    #[cfg(feature = "histograms")]
    pub fn histogram(&self) -> Result<Histogram<u64>, crate::Invalid> {
        decode_histogram(&self.hdr_base64)
    }
}

/// A histogram as the format keeps it: V2 deflate, base64.
#[cfg(feature = "histograms")]
pub fn encode_histogram(h: &Histogram<u64>) -> String {
    let mut bytes = Vec::new();
    V2DeflateSerializer::new()
        .serialize(h, &mut bytes)
        .expect("serialising to memory cannot fail");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(feature = "histograms")]
pub fn decode_histogram(b64: &str) -> Result<Histogram<u64>, crate::Invalid> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .map_err(crate::Invalid::HistogramBase64)?;
    Deserializer::new()
        .deserialize(&mut bytes.as_slice())
        .map_err(|e| crate::Invalid::HistogramDecode(format!("{e:?}")))
}

#[cfg(all(test, feature = "histograms"))]
mod tests {
    use super::*;

    fn counts(values: impl IntoIterator<Item = u64>) -> Histogram<u64> {
        let mut h = Histogram::<u64>::new_with_bounds(1, 3_600_000_000, 3).unwrap();
        for v in values {
            h.record(v).unwrap();
        }
        h
    }

    /// At counts that are multiples of 1000 and 10000 the rank is exact: of 1..=1000,
    /// p99.9 is the 999th value, not the 1000th.
    #[test]
    fn percentiles_by_integer_rank() {
        let h = counts(1..=1000);
        assert_eq!(value_at_percentile(&h, 99.9), 999);
        assert_eq!(value_at_percentile(&h, 50.0), 500);
        assert_eq!(value_at_percentile(&h, 100.0), 1000);
        assert_eq!(value_at_percentile(&h, 0.0), 1);
        // 10,000 values, 9,990 at 1 and 10 at 100: p99.9 is rank 9,990, still 1.
        let h = counts(std::iter::repeat_n(1, 9990).chain(std::iter::repeat_n(100, 10)));
        assert_eq!(value_at_percentile(&h, 99.9), 1);
        assert_eq!(value_at_percentile(&h, 99.99), 100);
        // 3 significant digits: a value reads as the top of its bucket, as hdrhistogram's.
        let h = counts([123_456]);
        assert_eq!(value_at_percentile(&h, 50.0), h.highest_equivalent(123_456));
        assert_eq!(value_at_percentile(&counts([]), 99.0), 0);
    }
}
