//! A sample reduced to its size, mean and variance: all that Welch's test, TOST, the
//! ratio's Fieller interval and Cohen's d need, so they can be taken from a summary that
//! another harness reported (mean, standard deviation, count) as well as from samples.
use crate::{check_finite, mean, variance, StatsError};

/// Size, mean and sample variance (divisor n − 1) of a sample of at least two values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Moments {
    pub n: usize,
    pub mean: f64,
    pub variance: f64,
}

impl Moments {
    /// The moments of `xs` (at least two finite values).
    pub fn of(xs: &[f64]) -> Result<Moments, StatsError> {
        check_finite(xs, 2)?;
        Ok(Moments {
            n: xs.len(),
            mean: mean(xs),
            variance: variance(xs),
        })
    }

    /// The moments a summary gives: `n` values with this mean and sample standard
    /// deviation.
    pub fn from_summary(n: usize, mean: f64, std_dev: f64) -> Result<Moments, StatsError> {
        if n < 2 {
            return Err(StatsError::TooFewSamples { have: n, need: 2 });
        }
        check_finite(&[mean, std_dev], 2)?;
        if std_dev < 0.0 {
            return Err(StatsError::NotFinite);
        }
        Ok(Moments {
            n,
            mean,
            variance: std_dev * std_dev,
        })
    }

    /// The variance of the mean: variance / n.
    pub(crate) fn mean_variance(&self) -> f64 {
        self.variance / self.n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::welch::tests::{A, B};

    #[test]
    fn a_summary_gives_the_moments_its_samples_give() {
        let m = Moments::of(&A).unwrap();
        let s = Moments::from_summary(A.len(), m.mean, m.variance.sqrt()).unwrap();
        assert_eq!(s.n, 10);
        crate::assert_close(s.variance, m.variance, 1e-12);
        assert!(Moments::of(&B[..1]).is_err());
        assert!(Moments::from_summary(1, 5.0, 0.0).is_err());
        assert!(Moments::from_summary(5, f64::NAN, 1.0).is_err());
        assert!(Moments::from_summary(5, 5.0, -1.0).is_err());
    }
}
