//! Change points of a series the way Apache Otava 0.8.0 finds them: a windowed E-divisive
//! search for where the series' distribution changes, each candidate judged by a Student
//! t-test of the segments either side, then weak points pruned. This is the parity mode:
//! Otava's steps reproduced as they are (its t-test on population standard deviations, its
//! merge that never re-tests a removed point's left neighbour), so its results can be
//! matched; plumb's own mode (`plumb.rs`) is measured against it. Written here because no
//! crate implements it (docs/history-otava-notes.md describes the source it follows).
use super::energy::{best_split, Within};

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
pub struct OtavaChange {
    pub index: usize,
    pub mean_before: f64,
    pub mean_after: f64,
    /// Population standard deviations (numpy's `std`), as Otava reports them.
    pub std_before: f64,
    pub std_after: f64,
    pub p: f64,
}

impl OtavaChange {
    /// The larger of the two relative changes (a drop from 2 to 1 is 1.0, not 0.5).
    pub fn magnitude(&self) -> f64 {
        super::magnitude(self.mean_before, self.mean_after)
    }
}

/// The change points of `x`, by Otava's method with `params`.
pub fn otava_change_points(x: &[f64], params: OtavaParams) -> Vec<OtavaChange> {
    let p1 = first_pass_threshold(params.max_p);
    let n = x.len();
    let window = params.window.max(2);
    let mut start = 0;
    let mut weak: Vec<usize> = Vec::new();
    while start < n {
        let end = (start + window).min(n);
        let found: Vec<usize> = otava_divisive(&x[start..end], p1)
            .into_iter()
            .map(|t| t + start)
            .collect();
        let last = found.last().copied().unwrap_or(0);
        start = last.max(start + window / 2);
        for i in found {
            if !weak.contains(&i) {
                weak.push(i);
            }
        }
    }
    weak.sort_unstable();
    let mut cps: Vec<OtavaChange> = (0..weak.len()).map(|k| tested(x, &weak, k)).collect();
    merge(&mut cps, x, params);
    cps
}

/// The split phase's looser threshold, from the final one as Otava derives it.
pub(super) fn first_pass_threshold(max_p: f64) -> f64 {
    if max_p < 0.05 {
        max_p * 10.0
    } else if max_p < 0.5 {
        max_p * 2.0
    } else {
        max_p
    }
}

/// The change point at list position `k` of `indices`, tested against its neighbours.
fn tested(x: &[f64], indices: &[usize], k: usize) -> OtavaChange {
    let prev = if k == 0 { 0 } else { indices[k - 1] };
    let next = indices.get(k + 1).copied().unwrap_or(x.len());
    let i = indices[k];
    let t = pooled_t_test(&x[prev..i], &x[i..next]);
    OtavaChange {
        index: i,
        mean_before: t.mean_before,
        mean_after: t.mean_after,
        std_before: t.std_before,
        std_after: t.std_after,
        p: t.p,
    }
}

/// Otava's E-divisive detector on one window `y` (its `ChangePointDetector` with the
/// t-test): the best split over every interval the points found so far cut it into, kept
/// while its t-test passes `threshold`; the window's change points, sorted.
pub fn otava_divisive(y: &[f64], threshold: f64) -> Vec<usize> {
    let within = Within::of(y);
    let mut cps: Vec<usize> = Vec::new();
    loop {
        let mut bounds = vec![0];
        bounds.extend(cps.iter().copied());
        bounds.push(y.len());
        let mut best: Option<(usize, f64, usize, usize)> = None;
        for w in bounds.windows(2) {
            let Some((tau, q)) = best_split(&within, w[0], w[1], 1) else {
                continue;
            };
            if best.is_none_or(|b| q > b.1) {
                best = Some((tau, q, w[0], w[1]));
            }
        }
        let Some((tau, _, s, e)) = best else { break };
        if pooled_t_test(&y[s..tau], &y[tau..e]).p <= threshold {
            cps.push(tau);
            cps.sort_unstable();
        } else {
            break;
        }
    }
    cps
}

struct OtavaTTest {
    mean_before: f64,
    mean_after: f64,
    std_before: f64,
    std_after: f64,
    p: f64,
}

/// Otava's test: two-sided, pooled variance, fed population standard deviations (so its
/// p-values are smaller than a textbook pooled t-test's); p = 1 with one point a side.
fn pooled_t_test(left: &[f64], right: &[f64]) -> OtavaTTest {
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
    let (v1, v2) = (var_pop(left, m1), var_pop(right, m2));
    let mut out = OtavaTTest {
        mean_before: m1,
        mean_after: m2,
        std_before: v1.sqrt(),
        std_after: v2.sqrt(),
        p: 1.0,
    };
    if left.len() + right.len() <= 2 {
        return out;
    }
    let df = n1 + n2 - 2.0;
    let pooled = ((n1 - 1.0) * v1 + (n2 - 1.0) * v2) / df;
    let t = (m1 - m2) / (pooled * (1.0 / n1 + 1.0 / n2)).sqrt();
    out.p = super::two_sided_t_p(t, df);
    out
}

/// Otava's merge: drop the weakest point (highest p, or the smallest magnitude once every
/// p passes) until all pass; after each removal re-test the point that took its place and
/// the next — never the one before it, which keeps its old test (Otava's way).
fn merge(cps: &mut Vec<OtavaChange>, x: &[f64], params: OtavaParams) {
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
fn first_max_by(cps: &[OtavaChange], key: impl Fn(&OtavaChange) -> f64) -> usize {
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
