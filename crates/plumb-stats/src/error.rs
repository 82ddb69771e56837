//! Why a statistic could not be computed: too few samples, a value not finite, a bad level.
use std::fmt;

/// Why a statistic could not be computed.
#[derive(Debug, Clone, PartialEq)]
pub enum StatsError {
    /// The statistic needs at least `need` samples; collect more runs.
    TooFewSamples { have: usize, need: usize },
    /// A sample was NaN, infinite or beyond ±1e300; the producer wrote a broken value.
    NotFinite,
    /// A confidence level outside (0, 1).
    BadLevel(f64),
    /// A quantile outside (0, 1).
    BadQuantile(f64),
}

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatsError::TooFewSamples { have, need } => {
                write!(f, "needs at least {need} samples, has {have}")
            }
            StatsError::NotFinite => write!(f, "a sample is NaN, infinite or absurdly large"),
            StatsError::BadLevel(l) => write!(f, "confidence level {l} is not in (0, 1)"),
            StatsError::BadQuantile(p) => write!(f, "quantile {p} is not in (0, 1)"),
        }
    }
}

impl std::error::Error for StatsError {}

pub(crate) fn check_level(level: f64) -> Result<(), StatsError> {
    if level > 0.0 && level < 1.0 {
        Ok(())
    } else {
        Err(StatsError::BadLevel(level))
    }
}
