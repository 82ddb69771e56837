//! When requests are due: a fixed interval or Poisson arrivals, as offsets in whole
//! nanoseconds from the test's start. With several threads each takes every n-th request of one schedule's
//! rate (its own phase, or its own Poisson stream at rate/n: the superposition of
//! independent Poisson streams is Poisson), so together they offer exactly the rate asked.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::time::Duration;

/// One thread's due times, as whole nanoseconds from the test's start.
pub struct Schedule {
    /// Arrivals per second of the whole schedule (all threads together).
    rate: f64,
    threads: u64,
    /// Constant schedule: the number, in the single-thread schedule, of the next
    /// arrival; this thread takes `index`, `index + threads`, … Each due time is computed
    /// from its number, never by adding steps, so it does not drift and any thread's
    /// (or agent's) arrival n is at exactly round(n · 10⁹ / rate) ns.
    arrival: u64,
    /// Poisson: the stream and the next due time.
    poisson: Option<(Pcg64, Duration)>,
}

impl Schedule {
    /// Thread `index` of `threads` sharing `rate` requests/s.
    pub fn new(rate: f64, threads: usize, index: usize, poisson_seed: Option<u64>) -> Self {
        let mut s = Schedule {
            rate,
            threads: threads as u64,
            arrival: index as u64,
            poisson: None,
        };
        if let Some(seed) = poisson_seed {
            let mut r = Pcg64::seed_from_u64(seed.wrapping_add(index as u64));
            let first = s.exponential_gap(&mut r);
            s.poisson = Some((r, first));
        }
        s
    }

    /// An exponential gap of this thread's stream (its rate: `rate / threads`), to the
    /// nanosecond.
    fn exponential_gap(&self, r: &mut Pcg64) -> Duration {
        let mean_ns = self.threads as f64 * 1e9 / self.rate;
        Duration::from_nanos((-mean_ns * (1.0 - r.gen::<f64>()).ln()).round() as u64)
    }

    /// The next due offset from the start, then moves past it.
    pub fn take(&mut self) -> Duration {
        let t = self.peek();
        match self.poisson.take() {
            Some((mut r, next)) => {
                let gap = self.exponential_gap(&mut r);
                self.poisson = Some((r, next + gap));
            }
            None => self.arrival += self.threads,
        }
        t
    }

    pub fn peek(&self) -> Duration {
        match &self.poisson {
            Some((_, next)) => *next,
            None => Duration::from_nanos((self.arrival as f64 * 1e9 / self.rate).round() as u64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_interleave_into_the_single_thread_schedule() {
        // 3 arrivals per ms does not divide a nanosecond evenly: each due time is still
        // the single schedule's, to the nanosecond.
        let mut all: Vec<Duration> = (0..3)
            .flat_map(|i| {
                let mut s = Schedule::new(3000.0, 3, i, None);
                (0..100_000).map(move |_| s.take())
            })
            .collect();
        all.sort();
        let mut one = Schedule::new(3000.0, 1, 0, None);
        for t in &all {
            assert_eq!(*t, one.take());
        }
        // Arrival 299 999 at 3000/s: 99.999666… s, rounded to the nanosecond.
        assert_eq!(all.last(), Some(&Duration::from_nanos(99_999_666_667)));
    }

    #[test]
    fn poisson_streams_together_average_the_rate() {
        let n = 200_000;
        let mut last = 0.0f64;
        for i in 0..2 {
            let mut s = Schedule::new(1000.0, 2, i, Some(7));
            for _ in 0..n / 2 {
                last = last.max(s.take().as_secs_f64());
            }
        }
        // n arrivals of a 1000/s process take n/1000 s, within 1 % at this n.
        assert!(
            (last - n as f64 / 1000.0).abs() < 0.01 * n as f64 / 1000.0,
            "{last}"
        );
    }
}
