//! Amdahl's law: what speeding up one part does to the whole.

use crate::Interval;

/// The end-to-end speedup when a part taking share `f` of the time (0..=1) becomes `s`
/// times faster and nothing else changes: 1 / (1 − f + f/s).
pub fn amdahl_speedup(f: f64, s: f64) -> f64 {
    1.0 / (1.0 - f + f / s)
}

/// The range of `amdahl_speedup` over a share interval and a speedup interval. The
/// function is monotone in each argument, so its extremes lie at the corners.
pub fn amdahl_range(f: Interval, s: Interval) -> Interval {
    let corners = [
        amdahl_speedup(f.lo, s.lo),
        amdahl_speedup(f.lo, s.hi),
        amdahl_speedup(f.hi, s.lo),
        amdahl_speedup(f.hi, s.hi),
    ];
    Interval {
        lo: corners.iter().copied().fold(f64::INFINITY, f64::min),
        hi: corners.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked by hand: f = 0.7, s = 2 → 1 / (0.3 + 0.35) = 1/0.65 = 1.538461…;
    /// f = 0.2, s = 10 → 1 / (0.8 + 0.02) = 1/0.82 = 1.219512…; f = 0 → 1; f = 1 → s;
    /// a slowdown (s = 0.5) of half the time: 1 / (0.5 + 1) = 0.6667.
    #[test]
    fn worked_by_hand() {
        assert!((amdahl_speedup(0.7, 2.0) - 1.0 / 0.65).abs() < 1e-12);
        assert!((amdahl_speedup(0.2, 10.0) - 1.0 / 0.82).abs() < 1e-12);
        assert_eq!(amdahl_speedup(0.0, 5.0), 1.0);
        assert!((amdahl_speedup(1.0, 5.0) - 5.0).abs() < 1e-12);
        assert!((amdahl_speedup(0.5, 0.5) - 2.0 / 3.0).abs() < 1e-12);
    }

    /// f in [0.6716, 0.7284] (700 of 1000 samples at 95 %), s = 2 exactly:
    /// 1 / (1 − 0.6716 + 0.3358) = 1.50557, 1 / (1 − 0.7284 + 0.3642) = 1.57282.
    #[test]
    fn range_over_the_corners() {
        let f = Interval {
            lo: 0.6715974234910674,
            hi: 0.7284025765089325,
        };
        let r = amdahl_range(f, Interval { lo: 2.0, hi: 2.0 });
        assert!((r.lo - 1.5055676911257114).abs() < 1e-9, "{r:?}");
        assert!((r.hi - 1.57282482887482).abs() < 1e-9, "{r:?}");
        // A slowdown: more share, worse whole.
        let r = amdahl_range(Interval { lo: 0.2, hi: 0.4 }, Interval { lo: 0.5, hi: 0.5 });
        assert!((r.lo - 1.0 / 1.4).abs() < 1e-12 && (r.hi - 1.0 / 1.2).abs() < 1e-12);
    }
}
