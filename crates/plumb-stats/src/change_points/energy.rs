//! Where a segment most likely changes: the E-divisive energy statistic of Matteson & James
//! (2014, arXiv 1306.4933) with α = 1, maximised over every split τ and segment end κ, as
//! Apache Otava 0.8.0 evaluates it. Both detection modes locate candidates with it.

/// Σ_{a ≤ i < k < b} |y_i − y_k| for every segment [a, b) of one window, in O(L²): so each
/// Q(τ, κ) costs O(1) instead of a fresh sum over its pairs.
pub(super) struct Within {
    len: usize,
    sums: Vec<f64>,
}

impl Within {
    pub(super) fn of(y: &[f64]) -> Within {
        let len = y.len();
        let stride = len + 1;
        let mut sums = vec![0.0; stride * stride];
        // W[a][b] = W[a+1][b] + Σ_{a<k<b} |y_a − y_k|: the pairs that start at a, added
        // to those that start later, for a from the end down.
        for a in (0..len).rev() {
            let mut from_a = 0.0;
            for b in a + 1..=len {
                if b - 1 > a {
                    from_a += (y[a] - y[b - 1]).abs();
                }
                sums[a * stride + b] = sums[(a + 1) * stride + b] + from_a;
            }
        }
        Within { len, sums }
    }

    fn get(&self, a: usize, b: usize) -> f64 {
        self.sums[a * (self.len + 1) + b]
    }
}

/// The split τ of [s, e) (indices into the window `w` was built from) maximising Q(τ, κ)
/// over every κ, both segments at least `min_segment` long; the first maximum in (τ, κ)
/// order, as Otava's argmax takes it. None when [s, e) is too short to split.
pub(super) fn best_split(
    w: &Within,
    s: usize,
    e: usize,
    min_segment: usize,
) -> Option<(usize, f64)> {
    let m0 = min_segment.max(1);
    if e - s < 2 * m0 {
        return None;
    }
    let mut best = (s + m0, f64::NEG_INFINITY);
    for tau in s + m0..=e - m0 {
        let wx = w.get(s, tau);
        let n = (tau - s) as f64;
        for kappa in tau + m0..=e {
            let m = (kappa - tau) as f64;
            let wy = w.get(tau, kappa);
            let cross = w.get(s, kappa) - wx - wy;
            let a = 2.0 / (m + n) * cross;
            let b = if n > 1.0 {
                2.0 * m / ((m + n) * (n - 1.0)) * wx
            } else {
                0.0
            };
            let c = if m > 1.0 {
                2.0 * n / ((m + n) * (m - 1.0)) * wy
            } else {
                0.0
            };
            let q = a - b - c;
            if q > best.1 {
                best = (tau, q);
            }
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pair_sums_match_a_direct_sum() {
        let y = [3.0, -1.0, 4.0, 1.5, 9.0, 2.0, 6.0];
        let w = Within::of(&y);
        for a in 0..=y.len() {
            for b in a..=y.len() {
                let mut direct = 0.0;
                for i in a..b {
                    for k in i + 1..b {
                        direct += f64::abs(y[i] - y[k]);
                    }
                }
                assert!((w.get(a, b) - direct).abs() < 1e-12, "[{a}, {b})");
            }
        }
    }

    #[test]
    fn a_step_is_split_where_it_is_and_short_segments_are_refused() {
        let y = [1.0, 1.1, 0.9, 1.0, 5.0, 5.1, 4.9];
        let w = Within::of(&y);
        assert_eq!(best_split(&w, 0, 7, 1).unwrap().0, 4);
        assert_eq!(best_split(&w, 0, 7, 3).unwrap().0, 4);
        assert!(best_split(&w, 0, 5, 3).is_none());
    }
}
