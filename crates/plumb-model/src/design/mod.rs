//! A benchmark's declared design: the workload it offers (keys, mix, data sizes,
//! concurrency, arrival, durability, state between runs) and, optionally, what production
//! looks like — recorded in the result so the design layer's red flags can be checked
//! before a run (`plumb design check`) and beside its findings after.
//!
//! Every field is optional: a design says what it knows. Read from a workload file
//! (`file.rs`), a YCSB preset (`ycsb.rs`) or the harness's builder.

mod error;
#[cfg(feature = "read")]
mod file;
mod workload;
mod ycsb;

pub use error::DesignError;
#[cfg(feature = "read")]
pub use file::parse_workload_file;
pub use workload::WorkloadFile;
pub use ycsb::ycsb_core;

use crate::quantity::{ByteSize, Duration, Rate};
use crate::Question;
use serde::{Deserialize, Serialize};

/// What a benchmark declares about its workload. Absent fields were not declared.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Design {
    /// The preset the design started from (`ycsb-a` …), for the reader.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keys: Option<KeyDistribution>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mix: Option<Mix>,
    /// Records (items, keys) in the data set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_size: Option<SizeDistribution>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_size: Option<SizeDistribution>,
    /// Bytes the benchmark touches; when absent, estimated from records × record size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_set: Option<ByteSize>,
    /// Threads (or connections) issuing operations at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrival: Option<Arrival>,
    /// The latency one operation is expected to take, for Little's law (L = λW).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency: Option<Duration>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub durability: Option<Durability>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<StateBetweenRuns>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warmup: Option<Duration>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<Duration>,
    /// Fresh processes the benchmark is measured in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launches: Option<u32>,
    /// Where the load generator runs, relative to the system under test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<GeneratorPlace>,
    /// The question a verdict on this benchmark answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<Question>,
    /// What production looks like, in the same terms (its own `production` is never set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub production: Option<Box<Design>>,
}

/// Which keys operations touch, in what order and with what skew.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum KeyDistribution {
    /// Keys in order, 0, 1, 2, …: every access follows the last (prefetchers love it).
    Sequential,
    Uniform,
    /// Rank k drawn with probability ∝ 1/k^θ (YCSB's θ = 0.99); `scrambled` spreads the
    /// popular ranks over the key space (YCSB's ScrambledZipfianGenerator).
    Zipfian {
        theta: f64,
        scrambled: bool,
    },
    /// The newest keys most popular (YCSB's SkewedLatestGenerator).
    Latest {
        theta: f64,
    },
    /// A `data` share of the keys takes an `operations` share of accesses (YCSB's
    /// HotspotIntegerGenerator: 20 % / 80 % by default).
    Hotspot {
        data: f64,
        operations: f64,
    },
}

/// The operations' mix, as fractions summing to 1.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mix {
    #[serde(default)]
    pub read: f64,
    #[serde(default)]
    pub update: f64,
    #[serde(default)]
    pub insert: f64,
    #[serde(default)]
    pub scan: f64,
    #[serde(default)]
    pub read_modify_write: f64,
}

impl Mix {
    /// The share of operations that write (update, insert, read-modify-write).
    pub fn write_share(&self) -> f64 {
        self.update + self.insert + self.read_modify_write
    }
    pub fn total(&self) -> f64 {
        self.read + self.update + self.insert + self.scan + self.read_modify_write
    }
}

/// The size of a key or value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum SizeDistribution {
    Fixed {
        size: ByteSize,
    },
    Uniform {
        min: ByteSize,
        max: ByteSize,
    },
    /// YCSB's field-length Zipfian: `min` the most common size.
    Zipfian {
        min: ByteSize,
        max: ByteSize,
    },
    /// YCSB's histogram: bucket i weighted `counts[i]`, sizes in multiples of `block`
    /// (drawn as YCSB's `HistogramGenerator` draws, plumb-bench's `histogram_draw`).
    Histogram {
        block: ByteSize,
        counts: Vec<u64>,
    },
}

impl SizeDistribution {
    pub fn is_fixed(&self) -> bool {
        match self {
            SizeDistribution::Fixed { .. } => true,
            SizeDistribution::Uniform { min, max } | SizeDistribution::Zipfian { min, max } => {
                min == max
            }
            // YCSB's draw gives one size from one or two buckets.
            SizeDistribution::Histogram { counts, .. } => counts.len() <= 2,
        }
    }

    /// The mean size in bytes: exact for fixed and uniform; for Zipfian (θ = 0.99 over
    /// the sizes min..=max, min the mode) Σ size·p(size), summed over at most 10⁶ sizes
    /// (a wider range is taken at its mode, `min`: an under-estimate, said as such).
    pub fn mean_bytes(&self) -> f64 {
        match *self {
            SizeDistribution::Histogram { block, ref counts } => histogram_mean(block.0, counts),
            SizeDistribution::Fixed { size } => size.0 as f64,
            SizeDistribution::Uniform { min, max } => (min.0 as f64 + max.0 as f64) / 2.0,
            SizeDistribution::Zipfian { min, max } => {
                let n = max.0.saturating_sub(min.0) + 1;
                if n > 1_000_000 {
                    return min.0 as f64;
                }
                let (mut weighted, mut total) = (0.0, 0.0);
                for rank in 1..=n {
                    let p = (rank as f64).powf(-0.99);
                    weighted += p * (min.0 + rank - 1) as f64;
                    total += p;
                }
                weighted / total
            }
        }
    }
}

/// The mean of YCSB's histogram draw: number n uniform in [0, Σcounts); bucket i < last
/// takes the n in (cumᵢ₋₁, cumᵢ] (bucket 0 from 0, one more than its count) at (i + 1) ×
/// block; the rest fall to (buckets − 1) × block.
fn histogram_mean(block: u64, counts: &[u64]) -> f64 {
    let area: u128 = counts.iter().map(|&c| u128::from(c)).sum();
    if area == 0 {
        return 0.0;
    }
    let (mut lo, mut cum, mut total) = (0u128, 0u128, 0f64);
    for (i, &c) in counts
        .iter()
        .enumerate()
        .take(counts.len().saturating_sub(1))
    {
        cum += u128::from(c);
        let hi = cum.min(area - 1);
        if hi >= lo {
            total += (hi - lo + 1) as f64 * ((i as u64 + 1) * block) as f64;
            lo = hi + 1;
        }
    }
    let rest = area.saturating_sub(lo);
    total += rest as f64 * ((counts.len().saturating_sub(1)) as u64 * block) as f64;
    total / area as f64
}

/// How operations arrive: each thread issuing the next when the last returns (closed),
/// or on a schedule of their own (open, at `rate`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Arrival {
    Closed,
    Open { rate: Rate },
}

/// What a write waits for before it counts as done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Durability {
    /// Nothing: the write lives in memory (or the page cache) only.
    None,
    /// Every write fsync'd before it returns.
    FsyncPerOp,
    /// Writes batched and fsync'd together (group commit).
    GroupCommit,
}

/// The state each run starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StateBetweenRuns {
    /// A new, empty (or freshly loaded) store every run: no fragmentation, no compaction debt.
    Fresh,
    /// The previous run's store kept.
    Reused,
    /// A store written well past its size first (fragmented, compacted, as production's).
    Aged,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GeneratorPlace {
    SameMachine,
    OtherMachine,
}

impl std::fmt::Display for KeyDistribution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyDistribution::Sequential => f.write_str("sequential"),
            KeyDistribution::Uniform => f.write_str("uniform"),
            KeyDistribution::Zipfian { theta, scrambled } => {
                let kind = if *scrambled {
                    "scrambled Zipfian"
                } else {
                    "Zipfian"
                };
                write!(f, "{kind} (θ = {theta})")
            }
            KeyDistribution::Latest { theta } => write!(f, "latest (θ = {theta})"),
            KeyDistribution::Hotspot { data, operations } => write!(
                f,
                "hotspot ({} of keys take {} of operations)",
                crate::format::percent(*data),
                crate::format::percent(*operations)
            ),
        }
    }
}

impl std::fmt::Display for Durability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Durability::None => "none",
            Durability::FsyncPerOp => "an fsync per operation",
            Durability::GroupCommit => "group commit",
        })
    }
}

impl Design {
    /// Bytes of one record (mean key size + mean value size), when either is declared.
    pub fn record_bytes(&self) -> Option<f64> {
        let key = self.key_size.as_ref().map(|s| s.mean_bytes());
        let value = self.value_size.as_ref().map(|s| s.mean_bytes());
        (key.is_some() || value.is_some()).then(|| key.unwrap_or(0.0) + value.unwrap_or(0.0))
    }

    /// The working set: as declared, else records × record size; `true` when estimated.
    pub fn working_set_bytes(&self) -> Option<(ByteSize, bool)> {
        if let Some(ws) = self.working_set {
            return Some((ws, false));
        }
        let bytes = self.records? as f64 * self.record_bytes()?;
        Some((ByteSize(bytes.min(u64::MAX as f64) as u64), true))
    }

    /// The design with `over`'s declared fields put over this one's.
    pub fn overlaid(&self, over: &Design) -> Design {
        macro_rules! pick {
            ($($f:ident),*) => { Design { $( $f: over.$f.clone().or_else(|| self.$f.clone()), )* } };
        }
        pick!(
            preset,
            keys,
            mix,
            records,
            key_size,
            value_size,
            working_set,
            threads,
            arrival,
            latency,
            durability,
            state,
            warmup,
            duration,
            launches,
            generator,
            question,
            production
        )
    }

    /// True when nothing is declared.
    pub fn is_empty(&self) -> bool {
        *self == Design::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_working_set_is_estimated_from_records_and_sizes() {
        let d = Design {
            records: Some(1_000),
            key_size: Some(SizeDistribution::Fixed { size: ByteSize(24) }),
            value_size: Some(SizeDistribution::Uniform {
                min: ByteSize(100),
                max: ByteSize(300),
            }),
            ..Design::default()
        };
        assert_eq!(d.working_set_bytes(), Some((ByteSize(224_000), true)));
        let declared = Design {
            working_set: Some(ByteSize(5)),
            ..d
        };
        assert_eq!(declared.working_set_bytes(), Some((ByteSize(5), false)));
        assert_eq!(Design::default().working_set_bytes(), None);
    }

    #[test]
    fn zipfian_sizes_favour_the_smallest() {
        // Two sizes, 1 B and 2 B, with weights 1 and 2^-0.99: mean = (1 + 2·w)/(1 + w).
        let w = 2f64.powf(-0.99);
        let z = SizeDistribution::Zipfian {
            min: ByteSize(1),
            max: ByteSize(2),
        };
        assert!((z.mean_bytes() - (1.0 + 2.0 * w) / (1.0 + w)).abs() < 1e-12);
        assert!(!z.is_fixed());
        let same = SizeDistribution::Uniform {
            min: ByteSize(8),
            max: ByteSize(8),
        };
        assert!(same.is_fixed());
    }

    /// YCSB's draw on block 100, counts [2, 3, 5]: n = 0, 1, 2 → 100; 3 … 9 → 200 (see
    /// plumb-bench's `histogram_draw`): mean (3 × 100 + 7 × 200) / 10 = 170.
    #[test]
    fn a_histograms_mean_follows_ycsbs_draw() {
        let h = SizeDistribution::Histogram {
            block: ByteSize(100),
            counts: vec![2, 3, 5],
        };
        assert_eq!(h.mean_bytes(), 170.0);
        assert!(!h.is_fixed());
        let two = SizeDistribution::Histogram {
            block: ByteSize(100),
            counts: vec![2, 3],
        };
        assert_eq!(two.mean_bytes(), 100.0);
        assert!(two.is_fixed());
    }

    #[test]
    fn an_overlay_keeps_what_it_does_not_say() {
        let base = Design {
            records: Some(10),
            threads: Some(1),
            ..Design::default()
        };
        let over = Design {
            threads: Some(8),
            ..Design::default()
        };
        let d = base.overlaid(&over);
        assert_eq!((d.records, d.threads), (Some(10), Some(8)));
    }

    #[test]
    fn round_trips_through_json() {
        let d = Design {
            keys: Some(KeyDistribution::Zipfian {
                theta: 0.99,
                scrambled: true,
            }),
            arrival: Some(Arrival::Open {
                rate: Rate::new(2000.0).unwrap(),
            }),
            durability: Some(Durability::GroupCommit),
            production: Some(Box::new(Design {
                threads: Some(64),
                ..Design::default()
            })),
            ..Design::default()
        };
        let json = serde_json::to_string(&d).unwrap();
        assert!(json.contains(r#""keys":{"kind":"zipfian","theta":0.99,"scrambled":true}"#));
        assert_eq!(serde_json::from_str::<Design>(&json).unwrap(), d);
    }
}
