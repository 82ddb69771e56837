//! Realistic data for benchmarks (issue 27): request distributions as YCSB defines them,
//! seeded and deterministic, so a realistic design is one line. Each generator maps a
//! uniform draw to a key (`value_at`, pure and testable) and draws from a seeded PCG.
mod keys;
mod sizes;
mod zipfian;

use std::fmt;

/// A distribution asked for with parameters it cannot have.
#[derive(Debug, Clone, PartialEq)]
pub enum DataError {
    /// No items to draw from.
    NoItems,
    /// A Zipfian exponent outside YCSB's (0, 1).
    Theta(f64),
    /// A range whose upper bound is below its lower.
    Bounds { lo: u64, hi: u64 },
    /// A histogram file that is not YCSB's format: where and why.
    Histogram(String),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::NoItems => f.write_str("a distribution needs at least one item"),
            DataError::Histogram(why) => write!(f, "not a YCSB histogram: {why}"),
            DataError::Bounds { lo, hi } => {
                write!(
                    f,
                    "the range {lo}..={hi} is empty: its upper bound is below its lower"
                )
            }
            DataError::Theta(t) => write!(
                f,
                "Zipfian θ = {t}: YCSB's generator needs 0 < θ < 1 (0.99 is YCSB's)"
            ),
        }
    }
}

impl std::error::Error for DataError {}

pub use keys::{Latest, Sequential, Uniform};
pub use sizes::SizeDist;
pub use zipfian::{fnvhash64, zeta, zeta_from, ScrambledZipfian, Zipfian, YCSB_THETA, ZETA_10E10};
