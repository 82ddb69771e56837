//! Discrete values (a count, times at a coarse clock's resolution) step at each value,
//! which both mode detectors would read as one mode per value. Each run of k tied values
//! is therefore spread evenly over ± half the gap to its nearer neighbouring value (the
//! nearer, so that a tie at the edge of a cluster is not smeared across the gap to the
//! next one), so a lattice whose counts rise then fall becomes a unimodal staircase, a
//! lattice with two humps stays bimodal, and order is kept (the i-th spread value is the
//! i-th original).

/// The values sorted, the same with their ties spread, and whether there were ties.
pub(crate) fn sorted_and_spread(xs: &[f64]) -> (Vec<f64>, Vec<f64>, bool) {
    let s = crate::sorted(xs);
    let mut spread = s.clone();
    let ties = spread_ties(&mut spread);
    (s, spread, ties)
}

/// Spreads the ties of sorted values in place; returns whether there were any.
pub(crate) fn spread_ties(s: &mut [f64]) -> bool {
    let mut runs = Vec::new();
    let mut start = 0;
    while start < s.len() {
        let end = start + s[start..].iter().take_while(|&&x| x == s[start]).count();
        runs.push((start, end));
        start = end;
    }
    if runs.len() < 2 || runs.len() == s.len() {
        return false; // one distinct value has nothing to spread over; no ties, nothing to do
    }
    let value = |r: (usize, usize)| s[r.0];
    let spans: Vec<(f64, f64)> = (0..runs.len())
        .map(|i| {
            let v = value(runs[i]);
            let below = (i > 0).then(|| v - value(runs[i - 1]));
            let above = (i + 1 < runs.len()).then(|| value(runs[i + 1]) - v);
            let nearer = match (below, above) {
                (Some(b), Some(a)) => b.min(a),
                (b, a) => b.or(a).expect("two distinct values at least"),
            };
            (nearer / 2.0, nearer / 2.0)
        })
        .collect();
    for (&(from, to), &(down, up)) in runs.iter().zip(&spans) {
        let k = to - from;
        if k > 1 {
            let v = s[from];
            for (i, x) in s[from..to].iter_mut().enumerate() {
                *x = v - down + (down + up) * (i as f64 + 0.5) / k as f64;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_spread_over_half_the_gap_to_the_nearer_neighbour() {
        let mut s = [1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 2.1];
        assert!(spread_ties(&mut s));
        // 1 (×2): its one gap is 1, so [0.5, 1.5] in halves;
        // 2 (×4): gaps 1 below and 0.1 above, the nearer 0.1, so [1.95, 2.05] in quarters.
        let want = [0.75, 1.25, 1.9625, 1.9875, 2.0125, 2.0375, 2.1];
        for (g, w) in s.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{s:?}");
        }
        assert!(!spread_ties(&mut [3.0, 3.0, 3.0]));
        assert!(!spread_ties(&mut [1.0, 2.0, 3.0]));
    }
}
