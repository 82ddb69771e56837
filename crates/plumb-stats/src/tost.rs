//! Equivalence within a margin by two one-sided Welch tests (TOST), checked against statsmodels.
use crate::student_t::t_sf;
use crate::welch::welch_parts;
use crate::{Moments, StatsError};

/// Two one-sided Welch t-tests (TOST) for equivalence of two means within ±`margin`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tost {
    pub margin: f64,
    /// p-value of H0: mean(new) - mean(base) ≤ -margin.
    pub p_lower: f64,
    /// p-value of H0: mean(new) - mean(base) ≥ +margin.
    pub p_upper: f64,
    /// max(p_lower, p_upper): equivalence is shown at level α when p < α.
    pub p: f64,
}

/// TOST on mean(new) - mean(base) with absolute margin `margin` (> 0), as statsmodels'
/// `ttost_ind(new, base, -margin, margin, usevar="unequal")`.
pub fn tost_welch(base: &[f64], new: &[f64], margin: f64) -> Result<Tost, StatsError> {
    Ok(tost_from_moments(
        &Moments::of(base)?,
        &Moments::of(new)?,
        margin,
    ))
}

/// `tost_welch` from each side's size, mean and variance.
pub fn tost_from_moments(base: &Moments, new: &Moments, margin: f64) -> Tost {
    let w = welch_parts(new, base);
    let (p_lower, p_upper) = if w.se == 0.0 {
        let inside = |b: bool| if b { 0.0 } else { 1.0 };
        (inside(w.diff > -margin), inside(w.diff < margin))
    } else {
        (
            t_sf((w.diff + margin) / w.se, w.df),
            t_sf((margin - w.diff) / w.se, w.df),
        )
    };
    Tost {
        margin,
        p_lower,
        p_upper,
        p: p_lower.max(p_upper),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_close;
    use crate::welch::tests::{A, B};

    // Reference: statsmodels 0.15
    //   ttost_ind(B, A, -0.1*mean(A), 0.1*mean(A), usevar='unequal')
    //     -> p 0.023917238598648295 (lower p 7.44e-13, upper p 0.0239)
    //   ttost_ind(A, B, -0.05*mean(A), 0.05*mean(A), usevar='unequal') -> p 0.9846269377118241
    #[test]
    fn matches_statsmodels() {
        let mean_a = A.iter().sum::<f64>() / A.len() as f64;
        let r = tost_welch(&A, &B, 0.1 * mean_a).unwrap();
        assert_close(r.p, 0.023917238598648295, 1e-7);
        assert_close(r.p_lower, 7.440908776219669e-13, 1e-4);
        let r = tost_welch(&A, &B, 0.05 * mean_a).unwrap();
        assert_close(r.p, 0.9846269377118241, 1e-9);
    }
}
