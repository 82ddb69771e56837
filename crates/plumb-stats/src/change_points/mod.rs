//! Change points of a series of results over commits (issue 25): where a benchmark's level
//! changed. Two modes share the E-divisive search that locates candidates (`energy.rs`):
//! Otava's, reproduced for parity (`otava.rs`), and plumb's (`plumb.rs`), which judges each
//! candidate by weighted levels and ranks corrected for the search (`split_test.rs`);
//! `across.rs` controls false alarms over many series analysed at once.
mod across;
mod energy;
mod otava;
mod plumb;
mod search;
mod search_null;
mod split_test;

pub use across::{benjamini_hochberg, change_points_across, merge_across};
pub use otava::{otava_change_points, otava_divisive, OtavaChange, OtavaParams};
pub use plumb::{change_points, change_points_after, Change, ChangeParams, Series, SplitState};
pub use split_test::{Level, SplitTest};

/// The larger of the two relative changes between levels `a` and `b`, as Otava measures a
/// change (a drop from 2 to 1 is 1.0, not 0.5); 0 where a level is 0.
pub(crate) fn magnitude(a: f64, b: f64) -> f64 {
    let fwd = if a == 0.0 { 0.0 } else { b / a - 1.0 };
    let bwd = if b == 0.0 { 0.0 } else { a / b - 1.0 };
    fwd.abs().max(bwd.abs())
}

/// Two-sided p of Student's t with `df` degrees of freedom (NaN for a NaN t).
pub(crate) fn two_sided_t_p(t: f64, df: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    if t.is_nan() {
        return f64::NAN;
    }
    let dist = StudentsT::new(0.0, 1.0, df).expect("df > 0");
    2.0 * dist.cdf(-t.abs())
}
