//! Samples summarised for plotting: a chart of 10⁶ points is megabytes and shows no
//! more than one of a thousand. The tables keep every sample's exact figures; the
//! charts draw at most a bounded number of points, the extremes always among them.

/// At most `max` values of `sorted` (ascending) at evenly spaced ranks, the first and
/// last always kept: the empirical quantile function at `max` points. Each comes with
/// its cumulative fraction (rank / (n − 1)), for a CDF.
pub fn quantile_points(sorted: &[f64], max: usize) -> Vec<(f64, f64)> {
    let n = sorted.len();
    if n == 0 {
        return Vec::new();
    }
    if n == 1 {
        return vec![(sorted[0], 1.0)];
    }
    let take = n.min(max.max(2));
    (0..take)
        .map(|i| {
            let rank = i * (n - 1) / (take - 1);
            (sorted[rank], (rank + 1) as f64 / n as f64)
        })
        .collect()
}

/// At most `max` of `values` (in run order) with their indexes, evenly strided, the
/// smallest and the largest always kept: a run-order plot keeps its outliers.
pub fn strided(values: &[f64], max: usize) -> Vec<(usize, f64)> {
    if values.len() <= max {
        return values.iter().copied().enumerate().collect();
    }
    let stride = values.len().div_ceil(max.max(1));
    let mut keep: Vec<usize> = (0..values.len()).step_by(stride).collect();
    let by = |f: fn(&f64, &f64) -> bool| {
        (0..values.len())
            .reduce(|a, b| if f(&values[b], &values[a]) { b } else { a })
            .unwrap_or(0)
    };
    keep.push(by(|b, a| b < a));
    keep.push(by(|b, a| b > a));
    keep.sort_unstable();
    keep.dedup();
    keep.into_iter().map(|i| (i, values[i])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantile_points_keep_the_extremes_and_are_bounded() {
        let sorted: Vec<f64> = (0..1_000_000).map(|i| i as f64).collect();
        let p = quantile_points(&sorted, 1000);
        assert_eq!(p.len(), 1000);
        assert_eq!(p[0], (0.0, 1e-6));
        assert_eq!(p[999], (999_999.0, 1.0));
        // Rank 500 of 999 steps over 999,999: 500,500 (integer division), F = 500,501/10⁶.
        assert_eq!(p[500].0, 500_500.0);
        // Fewer values than points: all of them.
        assert_eq!(quantile_points(&[1.0, 2.0, 3.0], 10).len(), 3);
        assert_eq!(quantile_points(&[], 10), []);
    }

    #[test]
    fn strided_points_keep_outliers_wherever_they_fall() {
        let mut v = vec![10.0; 10_000];
        v[1234] = 99.0; // not on a stride of 10
        v[4321] = 1.0;
        let p = strided(&v, 1000);
        assert!(p.len() <= 1002);
        assert!(p.contains(&(1234, 99.0)) && p.contains(&(4321, 1.0)));
        assert_eq!(strided(&[3.0, 1.0], 5), [(0, 3.0), (1, 1.0)]);
    }
}
