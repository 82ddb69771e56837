//! Latency histograms: HdrHistogram (the `hdrhistogram` crate) at 3 significant digits
//! over 1 µs … 1 hour, in microseconds, plus the standard `.hgrm` percentile text.

use hdrhistogram::Histogram;
use std::fmt::Write;

/// The percentiles every latency report shows, with their labels.
pub const PERCENTILES: [(&str, f64); 5] = [
    ("p50", 50.0),
    ("p90", 90.0),
    ("p99", 99.0),
    ("p99.9", 99.9),
    ("p99.99", 99.99),
];

pub(crate) const HIGHEST_US: u64 = 3_600_000_000;

/// A latency histogram in microseconds. Values above an hour are clamped to an hour and
/// counted as clamped, never dropped.
#[derive(Clone)]
pub struct LatencyHistogram {
    h: Histogram<u64>,
    clamped: u64,
}

impl Default for LatencyHistogram {
    fn default() -> Self {
        Self::new()
    }
}

impl LatencyHistogram {
    pub fn new() -> Self {
        LatencyHistogram {
            h: Histogram::new_with_bounds(1, HIGHEST_US, 3).expect("static, valid bounds"),
            clamped: 0,
        }
    }

    /// Records a latency in microseconds (fractions rounded; below 1 µs counts as 1 µs).
    pub fn record_us(&mut self, us: f64) {
        let v = us.round().max(1.0);
        let v = if v > HIGHEST_US as f64 {
            self.clamped += 1;
            HIGHEST_US
        } else {
            v as u64
        };
        self.h.record(v).expect("value within bounds");
    }

    pub fn count(&self) -> u64 {
        self.h.len()
    }

    pub fn clamped(&self) -> u64 {
        self.clamped
    }

    /// The value at percentile `p` (0–100), µs; 0 for an empty histogram.
    pub fn percentile_us(&self, p: f64) -> f64 {
        if self.h.is_empty() {
            return 0.0;
        }
        plumb_model::value_at_percentile(&self.h, p) as f64
    }

    pub fn max_us(&self) -> f64 {
        self.h.max() as f64
    }

    pub fn mean_us(&self) -> f64 {
        self.h.mean()
    }

    /// Adds every value of `other`: merging is lossless.
    pub fn merge(&mut self, other: &LatencyHistogram) {
        self.h.add(&other.h).expect("same bounds");
        self.clamped += other.clamped;
    }

    /// Adds every value of a decoded HdrHistogram.
    pub fn add_hdr(&mut self, other: &Histogram<u64>) -> Result<(), crate::LoadError> {
        self.h.add(other).map_err(|e| crate::LoadError::Histogram {
            what: "histogram out of range",
            cause: format!("{e:?}"),
        })
    }

    pub fn inner(&self) -> &Histogram<u64> {
        &self.h
    }
}

/// Each `(name, histogram)` as `name.hgrm` in `dir`, for HdrHistogram's plotters: a load
/// run's and a simulation's alike.
pub fn write_hgrm_files(
    dir: &std::path::Path,
    files: &[(&str, &LatencyHistogram)],
) -> Result<(), crate::LoadError> {
    for (name, h) in files {
        let path = dir.join(format!("{name}.hgrm"));
        std::fs::write(&path, percentile_distribution(h)).map_err(|e| crate::LoadError::Write {
            path: path.clone(),
            cause: e.to_string(),
        })?;
    }
    Ok(())
}

/// The HdrHistogram percentile distribution text (`.hgrm`), values in milliseconds, in
/// the layout of the Java implementation's `outputPercentileDistribution` (5 ticks per
/// half distance), which HdrHistogram plotters read.
pub fn percentile_distribution(h: &LatencyHistogram) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>12} {:>14} {:>10} {:>14}\n",
        "Value", "Percentile", "TotalCount", "1/(1-Percentile)"
    );
    let hist = h.inner();
    if hist.is_empty() {
        return out;
    }
    let mut total = 0u64;
    for v in hist.iter_quantiles(5) {
        let q = v.quantile_iterated_to();
        let value_ms = v.value_iterated_to() as f64 / 1000.0;
        total += v.count_since_last_iteration();
        if q < 1.0 {
            let _ = writeln!(
                out,
                "{:12.3} {:2.12} {:10} {:14.2}",
                value_ms,
                q,
                total,
                1.0 / (1.0 - q)
            );
        } else {
            let _ = writeln!(out, "{:12.3} {:2.12} {:10}", value_ms, q, hist.len());
        }
    }
    let _ = writeln!(
        out,
        "#[Mean    = {:12.3}, StdDeviation   = {:12.3}]",
        hist.mean() / 1000.0,
        hist.stdev() / 1000.0
    );
    let _ = writeln!(
        out,
        "#[Max     = {:12.3}, Total count    = {:12}]",
        hist.max() as f64 / 1000.0,
        hist.len()
    );
    let _ = writeln!(
        out,
        "#[Buckets = {:12}, SubBuckets     = {:12}]",
        hist.buckets(),
        hist.distinct_values()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_a_known_distribution() {
        // 1..=10000 µs once each: the p-th percentile is p·100 µs, within 3 digits.
        let mut h = LatencyHistogram::new();
        for v in 1..=10_000 {
            h.record_us(v as f64);
        }
        assert_eq!(h.count(), 10_000);
        for (_, p) in PERCENTILES {
            let want = p * 100.0;
            assert!(
                (h.percentile_us(p) - want).abs() <= want * 0.001 + 1.0,
                "p{p}: {}",
                h.percentile_us(p)
            );
        }
        // The max is reported as the highest value equivalent to 10 000 at 3 digits.
        assert!(
            (10_000.0..=10_010.0).contains(&h.max_us()),
            "{}",
            h.max_us()
        );
    }

    #[test]
    fn merging_equals_recording_everything_in_one() {
        let (mut a, mut b, mut all) = (
            LatencyHistogram::new(),
            LatencyHistogram::new(),
            LatencyHistogram::new(),
        );
        for v in 0..5000u64 {
            let x = (v * 7919 % 100_000) as f64;
            if v % 3 == 0 {
                a.record_us(x)
            } else {
                b.record_us(x)
            }
            all.record_us(x);
        }
        a.merge(&b);
        assert_eq!(a.count(), all.count());
        for (_, p) in PERCENTILES {
            assert_eq!(a.percentile_us(p), all.percentile_us(p));
        }
    }

    #[test]
    fn distribution_text_has_the_hgrm_shape() {
        let mut h = LatencyHistogram::new();
        for v in [1000.0, 2000.0, 3000.0, 200_000.0] {
            h.record_us(v);
        }
        let text = percentile_distribution(&h);
        assert!(
            text.starts_with("       Value     Percentile TotalCount 1/(1-Percentile)"),
            "{text}"
        );
        assert!(
            text.contains("#[Max     =      200.063, Total count    =            4]"),
            "{text}"
        );
        let last_data = text
            .lines()
            .rfind(|l| !l.starts_with('#') && !l.trim().is_empty())
            .unwrap();
        assert!(last_data.contains("1.000000000000"), "{last_data}");
    }

    #[test]
    fn absurd_values_are_clamped_and_counted() {
        let mut h = LatencyHistogram::new();
        h.record_us(1e13);
        assert_eq!((h.count(), h.clamped()), (1, 1));
    }
}
