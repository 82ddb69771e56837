//! Lag-1 autocorrelation of samples in run order, and whether it shows them dependent: the
//! test that decides whether an in-process run's samples are replicated one by one or by
//! batch means (batches are what a slow spell needs; one far-out sample does not).
use crate::{check_finite, StatsError};

/// The lag-1 autocorrelation of `xs` as R's `acf` and statsmodels compute it: the sum of
/// products of neighbouring deviations from the mean over the sum of squared deviations.
/// 0 for constant samples.
pub fn lag1_autocorrelation(xs: &[f64]) -> Result<f64, StatsError> {
    check_finite(xs, 3)?;
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    let squares: f64 = xs.iter().map(|x| (x - mean).powi(2)).sum();
    if squares == 0.0 {
        return Ok(0.0);
    }
    let products: f64 = xs.windows(2).map(|w| (w[0] - mean) * (w[1] - mean)).sum();
    Ok(products / squares)
}

/// Whether `xs` are positively autocorrelated beyond chance at one-sided level `alpha`:
/// under independence the lag-1 autocorrelation is about normal with mean −1/n and
/// variance 1/n (Bartlett), so it is dependent when above −1/n + z(1 − α)/√n.
pub fn positively_autocorrelated(xs: &[f64], alpha: f64) -> Result<bool, StatsError> {
    let r1 = lag1_autocorrelation(xs)?;
    let n = xs.len() as f64;
    let z = crate::normal_quantile(1.0 - alpha);
    Ok(r1 > -1.0 / n + z / n.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// numpy: x = [3,1,4,1,5,9,2,6,5,3,5,8]; d = x - x.mean();
    /// (d[:-1]*d[1:]).sum() / (d*d).sum() = -0.07704402515723274 (R's acf(x)$acf[2] alike).
    #[test]
    fn lag_one_is_acf_s() {
        let x = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0, 8.0];
        let r = lag1_autocorrelation(&x).unwrap();
        assert!((r - -0.07704402515723274).abs() < 1e-15, "{r}");
        assert_eq!(lag1_autocorrelation(&[2.0; 5]).unwrap(), 0.0);
        assert!(lag1_autocorrelation(&[1.0, 2.0]).is_err());
    }

    /// A slow spell is dependence; one far-out sample among independent ones is not.
    #[test]
    fn a_slow_spell_is_dependent_and_one_far_sample_is_not() {
        // A hashed, not a stepped, jitter: neighbours unrelated.
        let jitter = |i: usize| ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 59) as f64;
        let spell: Vec<f64> = (0..2000)
            .map(|i| if (900..1100).contains(&i) { 130.0 } else { 100.0 } + jitter(i))
            .collect();
        assert!(positively_autocorrelated(&spell, 0.01).unwrap());
        let mut one: Vec<f64> = (0..2000).map(|i| 100.0 + jitter(i)).collect();
        one[1234] = 100_000.0;
        assert!(!positively_autocorrelated(&one, 0.01).unwrap());
    }
}
