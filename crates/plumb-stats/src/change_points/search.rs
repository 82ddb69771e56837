//! A p-value for a split that was searched for: the level test's smallest p over every
//! split of a segment is far smaller than one split's would be by chance (in 200 normal
//! points it is below 0.01 in 3.4 % of series, not 1 %). Bonferroni (× the splits) would
//! over-correct about six-fold there, since neighbouring splits test nearly the same thing,
//! and cost the detection of short new levels; the simulated null distribution of that
//! smallest p (`search_null.rs`) gives the exact correction instead.
use super::search_null::{LEVELS, NEWEST_ROWS, ROWS};

/// The fewest points a level may have: a shorter run of odd points is never a level. The
/// search's null table is simulated for this value.
pub(super) const MIN_SEGMENT: usize = 3;

/// The chance that the smallest p over every split of a segment of `n` normal points is at
/// most `p`: `p` corrected for the search. Interpolated in log p and log n between the
/// table's points; beyond its smallest level the ratio there is carried on (the tail of
/// such a search grows slowly, so this errs by little where no decision is made), beyond
/// its largest n it grows as Bonferroni would (in proportion to n: conservative).
pub(super) fn search_corrected(p: f64, n: usize) -> f64 {
    corrected(p, n, &ROWS, true)
}

/// As `search_corrected`, for a search among the splits that leave the newest 3 to 10
/// points on the right only (`NEWEST_ROWS`); past the table's largest n the correction
/// stays as it is there (the splits searched do not grow with n).
pub(super) fn newest_corrected(p: f64, n: usize) -> f64 {
    corrected(p, n, &NEWEST_ROWS, false)
}

type Row = (usize, [f64; LEVELS.len()]);

fn corrected(p: f64, n: usize, rows: &[Row], grows: bool) -> f64 {
    if n < 2 * MIN_SEGMENT || p.is_nan() {
        return 1.0;
    }
    // Two noise-free levels (a count, a simulated metric): no chance at all, searched or
    // not. (Interpolating in log p would make it NaN.)
    if p <= 0.0 {
        return 0.0;
    }
    let last = rows.len() - 1;
    let corrected = if n >= rows[last].0 {
        let growth = if grows {
            n as f64 / rows[last].0 as f64
        } else {
            1.0
        };
        row_corrected(p, &rows[last].1) * growth
    } else {
        let i = rows.iter().rposition(|r| r.0 <= n).unwrap_or(0);
        let (lo, hi) = (rows[i], rows[i + 1]);
        let f = ((n as f64).ln() - (lo.0 as f64).ln()) / ((hi.0 as f64).ln() - (lo.0 as f64).ln());
        let (a, b) = (row_corrected(p, &lo.1), row_corrected(p, &hi.1));
        (a.ln() + f * (b.ln() - a.ln())).exp()
    };
    corrected.clamp(p, 1.0)
}

/// One row's correction: the level at which the smallest p's quantile is `p`.
fn row_corrected(p: f64, quantiles: &[f64; LEVELS.len()]) -> f64 {
    let k = LEVELS.len() - 1;
    if p <= 0.0 {
        return 0.0;
    }
    if p <= quantiles[k] {
        return p * LEVELS[k] / quantiles[k];
    }
    // From the largest level's quantile up to p = 1, which the smallest p always reaches.
    let mut points: Vec<(f64, f64)> = vec![(1.0, 1.0)];
    points.extend(quantiles.iter().copied().zip(LEVELS));
    for w in points.windows(2) {
        let ((x_hi, l_hi), (x_lo, l_lo)) = (w[0], w[1]);
        if p >= x_lo {
            let f = (p.ln() - x_lo.ln()) / (x_hi.ln() - x_lo.ln());
            return (l_lo.ln() + f * (l_hi.ln() - l_lo.ln())).exp();
        }
    }
    1.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_split_needs_no_correction_and_more_splits_need_more() {
        // n = 6 leaves one split of 3 | 3: the table's first row is the identity, within
        // its simulation's error.
        for p in [0.3, 0.01, 0.001] {
            let c = search_corrected(p, 6);
            assert!((c / p - 1.0).abs() < 0.03, "{p} → {c}");
        }
        let at = |n| search_corrected(1e-4, n);
        assert!(at(6) < at(20) && at(20) < at(200) && at(200) < at(2000) && at(2000) < at(5000));
        // 200 points: about 34 times one split's p at 0.01, far from Bonferroni's 195.
        let k = search_corrected(2.9703e-4, 200) / 2.9703e-4;
        assert!((k - 0.01 / 2.9703e-4).abs() < 1e-6, "{k}");
    }

    #[test]
    fn the_correction_is_monotone_and_bounded() {
        for n in [6, 9, 45, 200, 777, 3000] {
            let mut last = 0.0;
            for e in 0..=200 {
                let p = 10f64.powf(-8.0 + e as f64 * 0.04);
                let c = search_corrected(p, n);
                assert!(
                    c >= last && c >= p && c <= 1.0,
                    "n {n} p {p}: {c} after {last}"
                );
                last = c;
            }
            assert_eq!(search_corrected(1.0, n), 1.0);
        }
        assert_eq!(search_corrected(0.01, 5), 1.0);
        assert_eq!(search_corrected(0.0, 40), 0.0);
        assert_eq!(newest_corrected(0.0, 4000), 0.0);
    }
}
