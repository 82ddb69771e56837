//! Clocks for the timed region. A clock is read twice per sample, around a batch of
//! iterations, never inside the batch. `Timer` is implemented by concrete types so the
//! sampling loop is monomorphised per clock: choosing the clock costs no branch in the
//! timed region.

use plumb_model::quantity::Frequency;
use plumb_model::ClockInfo;
use std::time::{Duration, Instant};

/// A source of timestamps in ticks.
pub trait Timer {
    /// Read at the start of a timed region.
    fn start(&self) -> u64;
    /// Read at the end of a timed region.
    fn end(&self) -> u64;
    fn ticks_to_ns(&self, ticks: u64) -> f64;
}

/// The OS monotonic clock (`clock_gettime(CLOCK_MONOTONIC)` through the vDSO).
pub struct Monotonic {
    base: Instant,
}

impl Monotonic {
    pub fn new() -> Self {
        Monotonic {
            base: Instant::now(),
        }
    }
}

impl Default for Monotonic {
    fn default() -> Self {
        Self::new()
    }
}

impl Timer for Monotonic {
    #[inline(always)]
    fn start(&self) -> u64 {
        self.base.elapsed().as_nanos() as u64
    }
    #[inline(always)]
    fn end(&self) -> u64 {
        self.base.elapsed().as_nanos() as u64
    }
    fn ticks_to_ns(&self, ticks: u64) -> f64 {
        ticks as f64
    }
}

/// The time-stamp counter, fenced as the clock talk recommends: `lfence; rdtsc` at the
/// start (no earlier instruction leaks in), `rdtscp; lfence` at the end (all timed
/// instructions retired, nothing later starts early).
#[cfg(target_arch = "x86_64")]
pub struct Tsc {
    /// Ticks per nanosecond: the counter's calibrated frequency, kept in the form the
    /// conversion of each reading divides by.
    ticks_per_nanosecond: f64,
}

#[cfg(target_arch = "x86_64")]
impl Tsc {
    /// `Some` only where CPUID reports an invariant TSC (constant rate across P-states and
    /// C-states); calibrated against the monotonic clock over `calibration`.
    pub fn new(calibration: Duration) -> Option<Tsc> {
        if !invariant_tsc() {
            return None;
        }
        let raw = FENCED;
        let (t0, c0) = (Instant::now(), raw.start());
        while t0.elapsed() < calibration {
            std::hint::spin_loop();
        }
        let (c1, t1) = (raw.end(), Instant::now());
        let ns = (t1 - t0).as_nanos() as f64;
        let ticks_per_nanosecond = (c1 - c0) as f64 / ns;
        (ticks_per_nanosecond > 0.0).then_some(Tsc {
            ticks_per_nanosecond,
        })
    }

    /// The calibrated frequency.
    pub fn frequency(&self) -> Frequency {
        Frequency::from_hertz(self.ticks_per_nanosecond * 1e9)
    }
}

/// The fenced reads without a calibration, for code that converts ticks itself (the
/// in-situ regions).
#[cfg(target_arch = "x86_64")]
pub(crate) const FENCED: Tsc = Tsc {
    ticks_per_nanosecond: 1.0,
};

#[cfg(target_arch = "x86_64")]
pub(crate) fn invariant_tsc() -> bool {
    use std::arch::x86_64::__cpuid;
    let max_ext = __cpuid(0x8000_0000).eax;
    max_ext >= 0x8000_0007 && __cpuid(0x8000_0007).edx & (1 << 8) != 0
}

#[cfg(target_arch = "x86_64")]
impl Timer for Tsc {
    #[inline(always)]
    fn start(&self) -> u64 {
        use std::arch::x86_64::{_mm_lfence, _rdtsc};
        // SAFETY: lfence and rdtsc exist on every x86_64 CPU.
        unsafe {
            _mm_lfence();
            _rdtsc()
        }
    }
    #[inline(always)]
    fn end(&self) -> u64 {
        use std::arch::x86_64::{__rdtscp, _mm_lfence};
        let mut aux = 0u32;
        // SAFETY: rdtscp is checked by the invariant-TSC CPUID bit's generation of CPUs.
        unsafe {
            let t = __rdtscp(&mut aux);
            _mm_lfence();
            t
        }
    }
    fn ticks_to_ns(&self, ticks: u64) -> f64 {
        ticks as f64 / self.ticks_per_nanosecond
    }
}

/// Resolution (smallest non-zero step between successive reads) and mean read cost of a
/// timer, measured by reading it back to back.
pub fn characterise<T: Timer>(t: &T, reads: usize) -> (f64, f64) {
    let mut min_step = u64::MAX;
    let mut last = t.start();
    let first = last;
    for _ in 0..reads {
        let now = t.end();
        let step = now.wrapping_sub(last);
        if step > 0 && step < min_step {
            min_step = step;
        }
        last = now;
    }
    let per_read = t.ticks_to_ns(last - first) / reads as f64;
    (t.ticks_to_ns(min_step), per_read)
}

/// The clock a run uses, chosen once.
pub enum Clock {
    Monotonic(Monotonic),
    #[cfg(target_arch = "x86_64")]
    Tsc(Tsc),
}

impl Clock {
    pub fn info(&self) -> ClockInfo {
        // 20 000 back-to-back reads: a millisecond or less, and far more than enough to
        // find the smallest step and a stable mean cost.
        const READS: usize = 20_000;
        match self {
            Clock::Monotonic(m) => {
                let (resolution, read_cost) = characterise(m, READS);
                ClockInfo {
                    name: "monotonic".into(),
                    resolution: plumb_model::quantity::Duration::from_nanos_f64(resolution),
                    read_cost: plumb_model::quantity::Duration::from_nanos_f64(read_cost),
                    tsc_frequency: None,
                }
            }
            #[cfg(target_arch = "x86_64")]
            Clock::Tsc(t) => {
                let (resolution, read_cost) = characterise(t, READS);
                ClockInfo {
                    name: "tsc".into(),
                    resolution: plumb_model::quantity::Duration::from_nanos_f64(resolution),
                    read_cost: plumb_model::quantity::Duration::from_nanos_f64(read_cost),
                    tsc_frequency: Some(t.frequency()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monotonic_resolves_below_a_microsecond_and_reads_cheaply() {
        let (res, cost) = characterise(&Monotonic::new(), 10_000);
        assert!(res > 0.0 && res < 1_000.0, "resolution {res} ns");
        assert!(cost > 0.0 && cost < 10_000.0, "read cost {cost} ns");
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn tsc_calibration_agrees_with_the_monotonic_clock() {
        let Some(tsc) = Tsc::new(Duration::from_millis(20)) else {
            return; // no invariant TSC on this CPU: nothing to calibrate
        };
        let t0 = Instant::now();
        let c0 = tsc.start();
        std::thread::sleep(Duration::from_millis(30));
        let c1 = tsc.end();
        let wall = t0.elapsed().as_nanos() as f64;
        let measured = tsc.ticks_to_ns(c1 - c0);
        assert!(
            (measured / wall - 1.0).abs() < 0.02,
            "tsc {measured} vs wall {wall}"
        );
    }
}
