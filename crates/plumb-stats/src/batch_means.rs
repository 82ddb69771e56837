use crate::{check_finite, mean_ci, MeanCi, StatsError};

/// Interval of the mean by the method of batch means: the series is cut into `batches`
/// consecutive batches of equal size (the earliest `n mod batches` values are left out),
/// and the Student-t interval is taken over the batch means.
///
/// Benchmark samples taken one after another are not independent: a machine that is
/// slower for a while makes runs of slow samples, and the ordinary interval, which
/// assumes independence, is then too narrow. Batch means are nearly independent once a
/// batch spans the slow episodes, so their interval stays honest under drift and
/// slow-changing noise; for independent samples it agrees with the ordinary one, with
/// fewer degrees of freedom. Needs n ≥ 2; `batches` is held within [2, n].
pub fn batch_means_ci(xs: &[f64], batches: usize, level: f64) -> Result<MeanCi, StatsError> {
    check_finite(xs, 2)?;
    let batches = batches.clamp(2, xs.len());
    let size = xs.len() / batches;
    let used = &xs[xs.len() - batches * size..];
    let means: Vec<f64> = used
        .chunks_exact(size)
        .map(|c| c.iter().sum::<f64>() / size as f64)
        .collect();
    mean_ci(&means, level)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_close;

    // Reference (scipy 1.17.1): x below; b = 5, s = 23 // 5 = 4, the first 3 dropped;
    //   y = x[3:].reshape(5, 4).mean(axis=1) = [10.075, 11.05, 10.875, 10.075, 10.55]
    //   h = st.t.ppf(1 - (1 - lvl)/2, 4) * y.std(ddof=1) / sqrt(5)
    //   lvl 0.999 -> 1.7260916764153056; lvl 0.95 -> 0.5565889580998976; mean 10.525
    // The ordinary 99.9 % interval of the same 20 values is ±0.42900558274938616: the
    // slow episode in the middle is what batch means see and it does not.
    const X: [f64; 23] = [
        10.0, 10.4, 9.8, 10.1, 10.3, 10.0, 9.9, 10.6, 11.2, 11.0, 11.4, 10.9, 11.3, 11.1, 10.2,
        10.0, 10.1, 9.9, 10.3, 10.2, 10.8, 10.5, 10.7,
    ];

    #[test]
    fn matches_scipy() {
        let ci = batch_means_ci(&X, 5, 0.999).unwrap();
        assert_close(ci.mean, 10.525, 1e-12);
        assert_close(ci.error, 1.7260916764153056, 1e-7);
        let ci = batch_means_ci(&X, 5, 0.95).unwrap();
        assert_close(ci.error, 0.5565889580998976, 1e-7);
        let iid = mean_ci(&X[3..], 0.999).unwrap();
        assert_close(iid.error, 0.42900558274938616, 1e-7);
    }

    #[test]
    fn one_sample_per_batch_is_the_ordinary_interval() {
        let ci = batch_means_ci(&X, 100, 0.999).unwrap();
        assert_eq!(ci, mean_ci(&X, 0.999).unwrap());
    }

    #[test]
    fn at_least_two_batches_of_at_least_two_samples() {
        // One batch would have no spread: two are used (11 values each, the first dropped).
        let two = batch_means_ci(&X, 1, 0.95).unwrap();
        let means = [
            X[1..12].iter().sum::<f64>() / 11.0,
            X[12..].iter().sum::<f64>() / 11.0,
        ];
        assert_eq!(two.error, mean_ci(&means, 0.95).unwrap().error);
        assert!(batch_means_ci(&[1.0], 5, 0.95).is_err());
    }
}
