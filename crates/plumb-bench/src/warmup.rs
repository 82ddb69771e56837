//! Warm-up until steady state: successive windows of samples are compared, and warm-up
//! ends when two agree within a tolerance, or at a time cap. Pure logic, tested without a
//! clock.
//!
//! A window is summarised by its mean without its largest sample. The mean, not the
//! median, because cold state often fades as a thinning tail (a memo's misses, a page
//! cache filling): the median of a window ignores the tail while it still doubles the
//! mean. The largest sample is left out so one interrupt does not hold warm-up hostage.

/// Decides, window by window, whether per-operation times have settled.
#[derive(Debug, Clone)]
pub struct SteadyState {
    tolerance: f64,
    /// Summary (mean without the largest sample) of each completed window, in order.
    pub window_means: Vec<f64>,
}

impl SteadyState {
    pub fn new(tolerance: f64) -> Self {
        SteadyState {
            tolerance,
            window_means: Vec::new(),
        }
    }

    /// Adds a window's samples (per-op ns); returns true once the last two window
    /// summaries differ by at most `tolerance` of the earlier one.
    pub fn push_window(&mut self, per_op: &mut [f64]) -> bool {
        per_op.sort_by(f64::total_cmp);
        let kept = if per_op.len() >= 5 {
            &per_op[..per_op.len() - 1]
        } else {
            &per_op[..]
        };
        self.window_means
            .push(kept.iter().sum::<f64>() / kept.len() as f64);
        self.is_steady()
    }

    pub fn is_steady(&self) -> bool {
        match self.window_means.as_slice() {
            [.., prev, last] => (last - prev).abs() <= self.tolerance * prev.abs(),
            _ => false,
        }
    }

    /// The latest estimate of the per-op time.
    pub fn estimate(&self) -> Option<f64> {
        self.window_means.last().copied()
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
        assert_eq!(s.window_means, [100.0, 80.0, 70.0, 69.5]);
        assert_eq!(s.estimate(), Some(69.5));
    }

    #[test]
    fn a_thinning_tail_keeps_warm_up_going_but_one_interrupt_does_not() {
        let mut s = SteadyState::new(0.02);
        // Medians equal (10), but the mean still falls as rare slow samples thin out.
        assert!(!s.push_window(&mut [10.0, 10.0, 10.0, 10.0, 10.0, 30.0, 30.0]));
        let mut s = SteadyState::new(0.02);
        s.push_window(&mut [10.0; 7]);
        assert!(
            s.push_window(&mut [10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 500.0]),
            "one outlier is dropped"
        );
        let mut s = SteadyState::new(0.02);
        s.push_window(&mut [10.0, 10.0, 10.0, 10.0, 10.0, 30.0, 30.0]);
        assert!(!s.push_window(&mut [10.0; 7]), "mean fell from 12.9 to 10");
    }

    #[test]
    fn one_window_is_never_steady() {
        let mut s = SteadyState::new(0.5);
        assert!(!s.push_window(&mut [1.0]));
    }
}
