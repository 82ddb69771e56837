//! The confidence interval of a difference of means (Welch's, or pooled), checked against scipy.
use crate::error::check_level;
use crate::welch::welch_parts;
use crate::{check_finite, mean, t_quantile, variance, Interval, Moments, StatsError};

/// The interval of mean(x) − mean(y) at `level`. With two or more values on each side,
/// Welch's (unequal variances). With a single value on one side, its spread cannot be
/// measured and the other side's stands for both: the pooled two-sample interval, which
/// is then the prediction interval of one more value (se = s·√(1/m + 1), m − 1 degrees
/// of freedom). Needs two or more values on at least one side.
pub fn difference_ci(x: &[f64], y: &[f64], level: f64) -> Result<Interval, StatsError> {
    check_level(level)?;
    check_finite(x, 1)?;
    check_finite(y, 1)?;
    let (diff, se, df) = match (x.len(), y.len()) {
        (1, 1) => return Err(StatsError::TooFewSamples { have: 1, need: 2 }),
        (1, m) | (m, 1) => {
            let several = if x.len() == 1 { y } else { x };
            let se = (variance(several) * (1.0 / m as f64 + 1.0)).sqrt();
            (mean(x) - mean(y), se, m as f64 - 1.0)
        }
        _ => {
            let w = welch_parts(&Moments::of(x)?, &Moments::of(y)?);
            (w.diff, w.se, w.df)
        }
    };
    let half = t_quantile(1.0 - (1.0 - level) / 2.0, df) * se;
    Ok(Interval {
        lo: diff - half,
        hi: diff + half,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_close;
    use crate::welch::tests::{A, B};

    // Reference: scipy 1.17,
    //   ttest_ind(A, B, equal_var=False).confidence_interval(0.95)
    //     -> (-1.0403899788527342, -0.5496100211472655)
    //   … .confidence_interval(0.999) -> (-1.248661601410942, -0.3413383985890523)
    #[test]
    fn welch_interval_matches_scipy() {
        let ci = difference_ci(&A, &B, 0.95).unwrap();
        assert_close(ci.lo, -1.0403899788527342, 1e-9);
        assert_close(ci.hi, -0.5496100211472655, 1e-9);
        let ci = difference_ci(&A, &B, 0.999).unwrap();
        assert_close(ci.lo, -1.248661601410942, 1e-9);
        assert_close(ci.hi, -0.3413383985890523, 1e-9);
    }

    // Reference: scipy 1.17, the pooled test with a one-value side:
    //   ttest_ind(A, [11.3], equal_var=True).confidence_interval(0.95), df 9
    //     -> (-1.5031795454589472, -0.23682045454105471); swapped, the same negated.
    #[test]
    fn one_value_on_a_side_borrows_the_others_spread() {
        let ci = difference_ci(&A, &[11.3], 0.95).unwrap();
        assert_close(ci.lo, -1.5031795454589472, 1e-9);
        assert_close(ci.hi, -0.23682045454105471, 1e-9);
        let ci = difference_ci(&[11.3], &A, 0.95).unwrap();
        assert_close(ci.lo, 0.23682045454105471, 1e-9);
        assert_close(ci.hi, 1.5031795454589472, 1e-9);
        assert!(difference_ci(&[1.0], &[2.0], 0.95).is_err());
    }
}
