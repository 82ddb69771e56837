//! Warm-up until steady state: successive windows of samples are compared, and warm-up
//! ends when two agree within a tolerance, or at a time cap. Pure logic, tested without a
//! clock.

/// Decides, window by window, whether per-operation times have settled.
#[derive(Debug, Clone)]
pub struct SteadyState {
    tolerance: f64,
    /// Median per-op time of each completed window, in order.
    pub window_medians: Vec<f64>,
}

impl SteadyState {
    pub fn new(tolerance: f64) -> Self {
        SteadyState {
            tolerance,
            window_medians: Vec::new(),
        }
    }

    /// Adds a window's samples (per-op ns); returns true once the last two window
    /// medians differ by at most `tolerance` of the earlier one.
    pub fn push_window(&mut self, per_op: &mut [f64]) -> bool {
        per_op.sort_by(f64::total_cmp);
        let median = plumb_stats::median_of_sorted(per_op);
        self.window_medians.push(median);
        self.is_steady()
    }

    pub fn is_steady(&self) -> bool {
        match self.window_medians.as_slice() {
            [.., prev, last] => (last - prev).abs() <= self.tolerance * prev.abs(),
            _ => false,
        }
    }

    /// The latest estimate of the per-op time.
    pub fn estimate(&self) -> Option<f64> {
        self.window_medians.last().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settles_when_two_windows_agree() {
        let mut s = SteadyState::new(0.02);
        assert!(!s.push_window(&mut [100.0, 101.0, 99.0]));
        assert!(
            !s.push_window(&mut [80.0, 81.0, 79.0]),
            "20 % faster: still warming"
        );
        assert!(!s.push_window(&mut [70.0, 70.5, 69.5]), "12 % faster");
        assert!(s.push_window(&mut [69.0, 70.0, 69.5]), "within 2 %");
        assert_eq!(s.window_medians, [100.0, 80.0, 70.0, 69.5]);
        assert_eq!(s.estimate(), Some(69.5));
    }

    #[test]
    fn one_window_is_never_steady() {
        let mut s = SteadyState::new(0.5);
        assert!(!s.push_window(&mut [1.0]));
    }
}
