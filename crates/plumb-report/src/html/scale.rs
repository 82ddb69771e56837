//! Axes' scales: data values to pixels, and the ticks worth labelling. Written here
//! rather than taken from a plotting crate because the report's charts are few and
//! simple, and the one axis they need that no crate offers is the percentile axis
//! of HdrHistogram's plotter, linear in log(1 / (1 − p)).

/// A map from data values to pixels along one axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    /// `lo..hi` onto `from..to` linearly.
    Linear {
        lo: f64,
        hi: f64,
        from: f64,
        to: f64,
    },
    /// `lo..hi` (both > 0) onto `from..to` by their logarithms.
    Log {
        lo: f64,
        hi: f64,
        from: f64,
        to: f64,
    },
    /// Bytes: logarithmic like `Log`, ticked at powers of two (4 KiB, 64 KiB, 1 MiB …).
    Bytes {
        lo: f64,
        hi: f64,
        from: f64,
        to: f64,
    },
    /// Percentiles 0 ≤ p < 100 by log10(1 / (1 − p/100)): p50 one decade from p90,
    /// p90 from p99, … up to `nines` (p99.99: 4).
    Nines { nines: f64, from: f64, to: f64 },
}

impl Scale {
    /// The pixel of `v`; values outside the domain extrapolate.
    pub fn at(&self, v: f64) -> f64 {
        match *self {
            Scale::Linear { lo, hi, from, to } => {
                let span = if hi > lo { hi - lo } else { 1.0 };
                from + (v - lo) / span * (to - from)
            }
            Scale::Log { lo, hi, from, to } | Scale::Bytes { lo, hi, from, to } => {
                let (l, h) = (lo.log10(), hi.log10());
                let span = if h > l { h - l } else { 1.0 };
                from + (v.max(f64::MIN_POSITIVE).log10() - l) / span * (to - from)
            }
            Scale::Nines { nines, from, to } => from + nines_of(v) / nines.max(1e-9) * (to - from),
        }
    }

    /// The pixel of `v`, held inside the axis (a wide interval's whisker stops at the
    /// edge of the plot instead of crossing the labels).
    pub fn at_within(&self, v: f64) -> f64 {
        let (a, b) = match *self {
            Scale::Linear { from, to, .. }
            | Scale::Log { from, to, .. }
            | Scale::Bytes { from, to, .. }
            | Scale::Nines { from, to, .. } => (from, to),
        };
        self.at(v).clamp(a.min(b), a.max(b))
    }

    /// Values worth a labelled tick: 1-2-5 steps on a linear axis (about `about` of them),
    /// powers of ten on a log axis (with 2 and 5 between when fewer than three decades),
    /// p0, p90, p99, … on the nines axis.
    pub fn ticks(&self, about: usize) -> Vec<f64> {
        match *self {
            Scale::Linear { lo, hi, .. } => linear_ticks(lo, hi, about),
            Scale::Log { lo, hi, .. } => log_ticks(lo, hi),
            Scale::Bytes { lo, hi, .. } => power_of_two_ticks(lo, hi, about),
            Scale::Nines { nines, .. } => {
                let mut t = vec![0.0, 50.0];
                let mut p: f64 = 90.0;
                for _ in 0..nines.floor() as usize {
                    t.push(p);
                    // Rounded, so the fourth nine is 99.99, not 99.99000000000001.
                    p = ((100.0 - (100.0 - p) / 10.0) * 1e6).round() / 1e6;
                }
                t
            }
        }
    }
}

/// log10(1 / (1 − p/100)): 0 at p0, 1 at p90, 2 at p99.
pub fn nines_of(percentile: f64) -> f64 {
    let rest = (1.0 - percentile / 100.0).max(1e-12);
    -rest.log10()
}

fn linear_ticks(lo: f64, hi: f64, about: usize) -> Vec<f64> {
    // NaN bounds fail every comparison, so they land here too.
    if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater)
        || !lo.is_finite()
        || !hi.is_finite()
    {
        return vec![lo];
    }
    let raw = (hi - lo) / about.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    // A hair of slack: 0.3 / 0.1 is 2.9999999999999996.
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    // Integer multiples of the step, so 0.1 · 3 prints as 0.3, not 0.30000000000000004.
    (first..=last)
        .map(|k| round_to(k as f64 * step, step))
        .collect()
}

fn round_to(v: f64, step: f64) -> f64 {
    let digits = (-step.log10().floor()).max(0.0) as i32 + 1;
    let f = 10f64.powi(digits);
    (v * f).round() / f
}

/// Powers of two inside lo..hi, every k-th so that about `about` remain.
fn power_of_two_ticks(lo: f64, hi: f64, about: usize) -> Vec<f64> {
    if lo.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || hi < lo {
        return vec![lo];
    }
    let (a, b) = (lo.log2().ceil() as i32, hi.log2().floor() as i32);
    let stride = ((b - a + 1) as usize).div_ceil(about.max(1)).max(1);
    (a..=b).step_by(stride).map(|k| 2f64.powi(k)).collect()
}

fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if lo.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
        || hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater)
    {
        return vec![lo];
    }
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let fine = b - a < 3;
    let mut t = Vec::new();
    for e in a..=b {
        let decade = 10f64.powi(e);
        let steps: &[f64] = if fine { &[1.0, 2.0, 5.0] } else { &[1.0] };
        for m in steps {
            let v = m * decade;
            if v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9) {
                t.push(v);
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_maps_ends_and_ticks_in_1_2_5_steps() {
        let s = Scale::Linear {
            lo: 0.0,
            hi: 10.0,
            from: 100.0,
            to: 300.0,
        };
        assert_eq!(s.at(0.0), 100.0);
        assert_eq!(s.at(5.0), 200.0);
        // 0..10 in about 5 ticks: step 2.
        assert_eq!(s.ticks(5), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        // 1.77..3.5 in about 4: raw step 0.43 → 0.5, from 2.0.
        assert_eq!(linear_ticks(1.77, 3.5, 4), [2.0, 2.5, 3.0, 3.5]);
        assert_eq!(linear_ticks(0.0, 0.3, 3), [0.0, 0.1, 0.2, 0.3]);
        // Inverted pixel range (y grows downwards): lo at the bottom.
        let y = Scale::Linear {
            lo: 0.0,
            hi: 1.0,
            from: 200.0,
            to: 0.0,
        };
        assert_eq!(y.at(1.0), 0.0);
    }

    #[test]
    fn log_maps_decades_evenly_and_ticks_their_powers() {
        let s = Scale::Log {
            lo: 1.0,
            hi: 1000.0,
            from: 0.0,
            to: 300.0,
        };
        assert!((s.at(10.0) - 100.0).abs() < 1e-9);
        assert!((s.at(100.0) - 200.0).abs() < 1e-9);
        assert_eq!(s.ticks(5), [1.0, 10.0, 100.0, 1000.0]);
        // Under three decades, 2 and 5 too.
        assert_eq!(log_ticks(3.0, 60.0), [5.0, 10.0, 20.0, 50.0]);
        // 32 KiB .. 64 MiB: eleven decades of bytes? No: 4.5 decades, powers only.
        assert_eq!(log_ticks(32768.0, 67108864.0), [1e5, 1e6, 1e7]);
    }

    #[test]
    fn byte_axes_tick_at_powers_of_two() {
        // 12 KiB .. 80 MiB: 2^14 … 2^26, thirteen powers, every second of them for about 7.
        let t = power_of_two_ticks(12.0 * 1024.0, 80.0 * 1048576.0, 7);
        assert_eq!(t[0], 16384.0);
        assert_eq!(t[1], 65536.0);
        assert_eq!(*t.last().unwrap(), 67108864.0);
        assert_eq!(t.len(), 7);
    }

    #[test]
    fn nines_put_each_nine_one_step_further() {
        // log10(1/(1-p)): p90 → 1, p99 → 2, p99.9 → 3 (HdrHistogram's plotter axis).
        assert!((nines_of(90.0) - 1.0).abs() < 1e-12);
        assert!((nines_of(99.0) - 2.0).abs() < 1e-12);
        assert!((nines_of(99.9) - 3.0).abs() < 1e-9);
        assert_eq!(nines_of(0.0), 0.0);
        let s = Scale::Nines {
            nines: 4.0,
            from: 0.0,
            to: 400.0,
        };
        assert!((s.at(99.0) - 200.0).abs() < 1e-9);
        assert_eq!(s.ticks(0), [0.0, 50.0, 90.0, 99.0, 99.9, 99.99]);
    }
}
