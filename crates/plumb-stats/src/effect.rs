use crate::{check_finite, mean, sorted, summary::median_of_sorted, variance, StatsError};

/// Cohen's d of new vs base: (mean(new) - mean(base)) / pooled standard deviation.
///
/// Beware in benchmarking: with the tiny spread of a quiet micro-benchmark the pooled
/// deviation is small, so a 0.5 % difference can score as a "large" effect (d > 0.8).
/// Judge practical importance with the ratio against a SESOI, not with d.
pub fn cohens_d(base: &[f64], new: &[f64]) -> Result<f64, StatsError> {
    check_finite(base, 2)?;
    check_finite(new, 2)?;
    let (n1, n2) = (base.len() as f64, new.len() as f64);
    let pooled =
        (((n1 - 1.0) * variance(base) + (n2 - 1.0) * variance(new)) / (n1 + n2 - 2.0)).sqrt();
    let diff = mean(new) - mean(base);
    Ok(if pooled == 0.0 {
        if diff == 0.0 {
            0.0
        } else {
            diff.signum() * f64::INFINITY
        }
    } else {
        diff / pooled
    })
}

/// Hodges–Lehmann estimate of the shift new - base: the median of all pairwise
/// differences. Robust to outliers where the difference of means is not.
pub fn hodges_lehmann(base: &[f64], new: &[f64]) -> Result<f64, StatsError> {
    check_finite(base, 1)?;
    check_finite(new, 1)?;
    let diffs: Vec<f64> = new
        .iter()
        .flat_map(|y| base.iter().map(move |x| y - x))
        .collect();
    Ok(median_of_sorted(&sorted(&diffs)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_close;
    use crate::welch::tests::{A, B};

    // Reference (numpy 2.4): pooled sd with ddof=1 weights -> d = 2.8804536892403294;
    //   np.median(np.subtract.outer(B, A)) -> 0.8
    #[test]
    fn matches_numpy() {
        assert_close(cohens_d(&A, &B).unwrap(), 2.8804536892403294, 1e-10);
        assert_close(hodges_lehmann(&A, &B).unwrap(), 0.8, 1e-12);
    }

    // Hand-worked: base [1,2,3], new [2,3,4]: pairwise diffs are
    // {1,0,-1, 2,1,0, 3,2,1} -> median 1; both sds are 1 so d = 1.
    #[test]
    fn hand_worked() {
        assert_eq!(
            hodges_lehmann(&[1.0, 2.0, 3.0], &[2.0, 3.0, 4.0]).unwrap(),
            1.0
        );
        assert_eq!(cohens_d(&[1.0, 2.0, 3.0], &[2.0, 3.0, 4.0]).unwrap(), 1.0);
    }
}
