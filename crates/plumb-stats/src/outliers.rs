//! Outliers by Tukey's fences, reported and never dropped here.
use crate::{check_finite, sorted, summary::percentile_of_sorted, StatsError};
use serde::{Deserialize, Serialize};

/// Outliers by Tukey's fences. Reported, never dropped here: whether to drop them is the
/// caller's decision and must be said in the output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TukeyOutliers {
    /// Q1 - 1.5·IQR and Q3 + 1.5·IQR.
    pub lower_fence: f64,
    pub upper_fence: f64,
    /// Indices (in the input's order) of samples below the lower / above the upper fence.
    pub low: Vec<usize>,
    pub high: Vec<usize>,
    /// Of those, how many are beyond the far fences (3·IQR).
    pub far_low: usize,
    pub far_high: usize,
}

impl TukeyOutliers {
    pub fn count(&self) -> usize {
        self.low.len() + self.high.len()
    }
}

pub fn tukey_outliers(xs: &[f64]) -> Result<TukeyOutliers, StatsError> {
    check_finite(xs, 1)?;
    let s = sorted(xs);
    let (q1, q3) = (
        percentile_of_sorted(&s, 25.0),
        percentile_of_sorted(&s, 75.0),
    );
    let iqr = q3 - q1;
    let (lower_fence, upper_fence) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
    let (far_lo, far_hi) = (q1 - 3.0 * iqr, q3 + 3.0 * iqr);
    let pick = |f: &dyn Fn(f64) -> bool| -> Vec<usize> {
        xs.iter()
            .enumerate()
            .filter(|(_, &x)| f(x))
            .map(|(i, _)| i)
            .collect()
    };
    Ok(TukeyOutliers {
        lower_fence,
        upper_fence,
        low: pick(&|x| x < lower_fence),
        high: pick(&|x| x > upper_fence),
        far_low: xs.iter().filter(|&&x| x < far_lo).count(),
        far_high: xs.iter().filter(|&&x| x > far_hi).count(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Hand-worked with type-7 quartiles: x (sorted) = 11.7 11.8 11.9 12.0 12.1 12.2 12.3
    // 12.5 13.0 30.0 -> Q1 = 11.925, Q3 = 12.45, IQR = 0.525, fences 11.1375 / 13.2375,
    // far upper fence 14.025: 30.0 (index 6) is a far high outlier, nothing is low.
    #[test]
    fn hand_worked() {
        let x = [12.1, 11.8, 12.5, 13.0, 11.9, 12.2, 30.0, 12.0, 12.3, 11.7];
        let o = tukey_outliers(&x).unwrap();
        assert!((o.lower_fence - 11.1375).abs() < 1e-9);
        assert!((o.upper_fence - 13.2375).abs() < 1e-9);
        assert_eq!(o.high, vec![6]);
        assert!(o.low.is_empty());
        assert_eq!((o.far_low, o.far_high), (0, 1));
    }

    #[test]
    fn constant_data_has_no_outliers() {
        assert_eq!(tukey_outliers(&[3.0; 8]).unwrap().count(), 0);
    }
}
