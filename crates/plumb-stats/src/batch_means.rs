//! The method of batch means: an interval of the mean honest under drift, checked against scipy.
use crate::{check_finite, mean_ci, MeanCi, StatsError};

/// Means of `batches` consecutive batches that together hold every value, their sizes
/// differing by at most one (the first `n mod batches` are one longer, as numpy's
/// `array_split`). `batches` is held within [1, n]; empty input gives no means.
pub fn batch_means(xs: &[f64], batches: usize) -> Vec<f64> {
    if xs.is_empty() {
        return Vec::new();
    }
    let batches = batches.clamp(1, xs.len());
    let (size, longer) = (xs.len() / batches, xs.len() % batches);
    let mut start = 0;
    (0..batches)
        .map(|i| {
            let len = size + usize::from(i < longer);
            let batch = &xs[start..start + len];
            start += len;
            batch.iter().sum::<f64>() / len as f64
        })
        .collect()
}

/// Interval of the mean by the method of batch means: the series is cut into `batches`
/// consecutive batches (`batch_means`), and the Student-t interval is taken over their
/// means.
///
/// Benchmark samples taken one after another are not independent: a machine that is
/// slower for a while makes runs of slow samples, and the ordinary interval, which
/// assumes independence, is then too narrow. Batch means are nearly independent once a
/// batch spans the slow episodes, so their interval stays honest under drift and
/// slow-changing noise; for independent samples it agrees with the ordinary one, with
/// fewer degrees of freedom. Needs n ≥ 2; `batches` is held within [2, n].
pub fn batch_means_ci(xs: &[f64], batches: usize, level: f64) -> Result<MeanCi, StatsError> {
    check_finite(xs, 2)?;
    mean_ci(&batch_means(xs, batches.clamp(2, xs.len())), level)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_close;

    // Reference (scipy 1.17.1, numpy): x below, 5 batches;
    //   y = [c.mean() for c in np.array_split(x, 5)]   (sizes 5, 5, 5, 4, 4)
    //     = [10.12, 10.54, 10.98, 10.075, 10.55]
    //   h = st.t.ppf(1 - (1 - lvl)/2, 4) * np.std(y, ddof=1) / sqrt(5)
    //   lvl 0.999 -> 1.4258825800433026; lvl 0.95 -> 0.45978467450076765; mean 10.453
    // The ordinary 99.9 % interval of the same 23 values is ±0.3907356772167555: the
    // slow episode in the middle is what batch means see and it does not.
    const X: [f64; 23] = [
        10.0, 10.4, 9.8, 10.1, 10.3, 10.0, 9.9, 10.6, 11.2, 11.0, 11.4, 10.9, 11.3, 11.1, 10.2,
        10.0, 10.1, 9.9, 10.3, 10.2, 10.8, 10.5, 10.7,
    ];

    #[test]
    fn matches_scipy() {
        let means = batch_means(&X, 5);
        for (m, r) in means.iter().zip([10.12, 10.54, 10.98, 10.075, 10.55]) {
            assert_close(*m, r, 1e-12);
        }
        let ci = batch_means_ci(&X, 5, 0.999).unwrap();
        assert_close(ci.mean, 10.453, 1e-12);
        assert_close(ci.error, 1.4258825800433026, 1e-7);
        let ci = batch_means_ci(&X, 5, 0.95).unwrap();
        assert_close(ci.error, 0.45978467450076765, 1e-7);
        let iid = mean_ci(&X, 0.999).unwrap();
        assert_close(iid.error, 0.3907356772167555, 1e-7);
    }

    #[test]
    fn one_value_per_batch_is_the_ordinary_interval() {
        assert_eq!(batch_means(&X, 100), X);
        let ci = batch_means_ci(&X, 100, 0.999).unwrap();
        assert_eq!(ci, mean_ci(&X, 0.999).unwrap());
    }

    #[test]
    fn every_value_counts_and_there_are_at_least_two_batches() {
        // numpy: [c.mean() for c in np.array_split(x, 2)] (sizes 12, 11)
        let two = batch_means_ci(&X, 1, 0.95).unwrap();
        let means = [10.466666666666667, 10.463636363636363];
        assert_close(two.error, mean_ci(&means, 0.95).unwrap().error, 1e-9);
        assert_eq!(batch_means(&X, 1), [X.iter().sum::<f64>() / 23.0]);
        assert!(batch_means(&[], 3).is_empty());
        assert!(batch_means_ci(&[1.0], 5, 0.95).is_err());
    }
}
