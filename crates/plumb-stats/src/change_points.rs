//! Change points of a series the way Apache Otava 0.8.0 finds them (issue 25): a windowed
//! E-divisive search for where the series' distribution changes, each candidate judged by
//! a Student t-test of the segments either side, then weak points pruned. This is the
//! parity mode: Otava's steps reproduced as they are (its t-test on population standard
//! deviations, its merge that never re-tests a removed point's left neighbour), so its
//! results can be matched; plumb's own improvements come on top of it, measured against
//! it. The method is written here because no crate implements it (docs/history-otava-notes.md
//! describes the source it follows).

/// Otava's parameters, its defaults by `Default`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OtavaParams {
    pub window: usize,
    pub max_p: f64,
    pub min_magnitude: f64,
}

impl Default for OtavaParams {
    fn default() -> Self {
        OtavaParams {
            window: 50,
            max_p: 0.001,
            min_magnitude: 0.0,
        }
    }
}

/// A change point: the index of the first point of the new level, and the t-test of the
/// segments either side of it (as the last re-test left them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangePoint {
    pub index: usize,
    pub mean_before: f64,
    pub mean_after: f64,
    pub p: f64,
}

impl ChangePoint {
    /// The larger of the two relative changes (a drop from 2 to 1 is 1.0, not 0.5).
    pub fn magnitude(&self) -> f64 {
        let (a, b) = (self.mean_before, self.mean_after);
        let fwd = if a == 0.0 { 0.0 } else { b / a - 1.0 };
        let bwd = if b == 0.0 { 0.0 } else { a / b - 1.0 };
        fwd.abs().max(bwd.abs())
    }
}

/// The change points of `x`, by Otava's method with `params`.
pub fn otava_change_points(x: &[f64], params: OtavaParams) -> Vec<ChangePoint> {
    let p1 = first_pass_threshold(params.max_p);
    let n = x.len();
    let step = params.window.max(2) / 2;
    let mut start = 0;
    let mut weak: Vec<usize> = Vec::new();
    while start < n {
        let end = (start + params.window.max(2)).min(n);
        let found: Vec<usize> = detect_window(&x[start..end], p1)
            .into_iter()
            .map(|t| t + start)
            .collect();
        let last = found.last().copied().unwrap_or(0);
        start = last.max(start + step);
        for i in found {
            if !weak.contains(&i) {
                weak.push(i);
            }
        }
    }
    weak.sort_unstable();
    let mut cps: Vec<ChangePoint> = (0..weak.len()).map(|k| tested(x, &weak, k)).collect();
    merge(&mut cps, x, params);
    cps
}

/// The split phase's looser threshold, from the final one as Otava derives it.
fn first_pass_threshold(max_p: f64) -> f64 {
    if max_p < 0.05 {
        max_p * 10.0
    } else if max_p < 0.5 {
        max_p * 2.0
    } else {
        max_p
    }
}

/// The change point at list position `k` of `indices`, tested against its neighbours.
fn tested(x: &[f64], indices: &[usize], k: usize) -> ChangePoint {
    let prev = if k == 0 { 0 } else { indices[k - 1] };
    let next = indices.get(k + 1).copied().unwrap_or(x.len());
    let i = indices[k];
    let (mean_before, mean_after, p) = pooled_t_test(&x[prev..i], &x[i..next]);
    ChangePoint {
        index: i,
        mean_before,
        mean_after,
        p,
    }
}

/// E-divisive within one window: the best split over every interval the points found so
/// far cut it into, kept while its t-test passes `threshold`.
fn detect_window(y: &[f64], threshold: f64) -> Vec<usize> {
    let mut cps: Vec<usize> = Vec::new();
    loop {
        let mut bounds = vec![0];
        bounds.extend(cps.iter().copied());
        bounds.push(y.len());
        let mut best: Option<(usize, f64, usize, usize)> = None;
        for w in bounds.windows(2) {
            let (s, e) = (w[0], w[1]);
            if e - s < 2 {
                continue;
            }
            let (tau, q) = best_split(y, s, e);
            if best.is_none_or(|b| q > b.1) {
                best = Some((tau, q, s, e));
            }
        }
        let Some((tau, _, s, e)) = best else { break };
        let (_, _, p) = pooled_t_test(&y[s..tau], &y[tau..e]);
        if p <= threshold {
            cps.push(tau);
            cps.sort_unstable();
        } else {
            break;
        }
    }
    cps
}

/// The split τ of [s, e) maximising the energy statistic Q(τ, κ) over every segment end
/// κ; the first maximum in (τ, κ) order. Every segment's sum of pairwise distances comes
/// from one table built once per interval (`Within`), so each Q costs O(1) instead of a
/// fresh sum over its pairs.
fn best_split(y: &[f64], s: usize, e: usize) -> (usize, f64) {
    let w = Within::of(&y[s..e]);
    let mut best = (s + 1, f64::NEG_INFINITY);
    for tau in 1..e - s {
        for kappa in tau + 1..=e - s {
            let (n, m) = (tau as f64, (kappa - tau) as f64);
            let (wx, wy) = (w.get(0, tau), w.get(tau, kappa));
            let cross = w.get(0, kappa) - wx - wy;
            let a = 2.0 / (m + n) * cross;
            let b = if tau > 1 {
                2.0 * m / ((m + n) * (n - 1.0)) * wx
            } else {
                0.0
            };
            let c = if kappa - tau > 1 {
                2.0 * n / ((m + n) * (m - 1.0)) * wy
            } else {
                0.0
            };
            let q = a - b - c;
            if q > best.1 {
                best = (s + tau, q);
            }
        }
    }
    best
}

/// Σ_{a ≤ i < k < b} |y_i − y_k| for every segment [a, b) of `y`.
struct Within {
    len: usize,
    sums: Vec<f64>,
}

impl Within {
    fn of(y: &[f64]) -> Within {
        let len = y.len();
        let mut sums = vec![0.0; (len + 1) * (len + 1)];
        for a in 0..len {
            // Each step to b + 1 adds the distances from y[b] to the points before it.
            let mut sum = 0.0;
            for b in a + 1..len {
                let to_b: f64 = y[a..b].iter().map(|v| (v - y[b]).abs()).sum();
                sum += to_b;
                sums[a * (len + 1) + b + 1] = sum;
            }
        }
        Within { len, sums }
    }

    fn get(&self, a: usize, b: usize) -> f64 {
        self.sums[a * (self.len + 1) + b]
    }
}

/// Otava's test: two-sided, pooled variance, fed population standard deviations.
/// Returns the two means and the p-value (1 with one point on each side).
fn pooled_t_test(left: &[f64], right: &[f64]) -> (f64, f64, f64) {
    let (n1, n2) = (left.len() as f64, right.len() as f64);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (m1, m2) = (mean(left), mean(right));
    let var_pop = |v: &[f64], m: f64| {
        if v.len() < 2 {
            0.0
        } else {
            v.iter().map(|a| (a - m) * (a - m)).sum::<f64>() / v.len() as f64
        }
    };
    if left.len() + right.len() <= 2 {
        return (m1, m2, 1.0);
    }
    let df = n1 + n2 - 2.0;
    let pooled = ((n1 - 1.0) * var_pop(left, m1) + (n2 - 1.0) * var_pop(right, m2)) / df;
    let t = (m1 - m2) / (pooled * (1.0 / n1 + 1.0 / n2)).sqrt();
    let p = if t.is_nan() {
        f64::NAN
    } else {
        use statrs::distribution::{ContinuousCDF, StudentsT};
        let dist = StudentsT::new(0.0, 1.0, df).expect("df > 0");
        2.0 * dist.cdf(-t.abs())
    };
    (m1, m2, p)
}

/// Otava's merge: drop the weakest point (highest p, or the smallest magnitude once every
/// p passes) until all pass; after each removal re-test the point that took its place and
/// the next — never the one before it, which keeps its old test (Otava's way).
fn merge(cps: &mut Vec<ChangePoint>, x: &[f64], params: OtavaParams) {
    while !cps.is_empty() {
        let mut k = first_max_by(cps, |c| c.p);
        if cps[k].p < params.max_p {
            k = first_max_by(cps, |c| -c.magnitude());
            if cps[k].magnitude() > params.min_magnitude {
                return;
            }
        }
        cps.remove(k);
        let indices: Vec<usize> = cps.iter().map(|c| c.index).collect();
        for j in [k, k + 1] {
            if j < cps.len() {
                cps[j] = tested(x, &indices, j);
            }
        }
    }
}

/// The position of the first largest `key` (Python's max: a NaN is chosen only if first).
fn first_max_by(cps: &[ChangePoint], key: impl Fn(&ChangePoint) -> f64) -> usize {
    let mut best = 0;
    for (i, c) in cps.iter().enumerate().skip(1) {
        if key(c) > key(&cps[best]) {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_step_is_found_where_it_is() {
        let x: Vec<f64> = (0..40).map(|i| if i < 20 { 1.0 } else { 2.0 }).collect();
        let cps = otava_change_points(&x, OtavaParams::default());
        assert_eq!(cps.len(), 1);
        assert_eq!(cps[0].index, 20);
        assert_eq!(cps[0].magnitude(), 1.0);
    }
}
