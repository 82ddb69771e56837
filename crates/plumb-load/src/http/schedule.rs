//! When requests are due: a fixed interval or Poisson arrivals, as offsets in whole
//! nanoseconds from the test's start. With several threads each takes every n-th request
//! of one schedule's rate (its own phase, or its own Poisson stream at rate/n: the superposition of
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
    /// Poisson: this thread's stream.
    poisson: Option<Pcg64>,
    /// The next due time, computed once when the schedule moves past the previous one:
    /// the generator peeks at it on every pass of its loop.
    next: Duration,
}

impl Schedule {
    /// Thread `index` of `threads` sharing `rate` requests/s.
    pub fn new(rate: f64, threads: usize, index: usize, poisson_seed: Option<u64>) -> Self {
        let mut s = Schedule {
            rate,
            threads: threads as u64,
            arrival: index as u64,
            poisson: poisson_seed.map(|seed| Pcg64::seed_from_u64(seed.wrapping_add(index as u64))),
            next: Duration::ZERO,
        };
        let mean = s.mean_gap_ns();
        s.next = match &mut s.poisson {
            Some(r) => exponential_gap(mean, r),
            None => s.due(),
        };
        s
    }

    /// Constant schedule: the due time of arrival number `arrival`.
    fn due(&self) -> Duration {
        Duration::from_nanos((self.arrival as f64 * 1e9 / self.rate).round() as u64)
    }

    /// The mean gap of this thread's arrivals (its rate: `rate / threads`), ns.
    fn mean_gap_ns(&self) -> f64 {
        self.threads as f64 * 1e9 / self.rate
    }

    /// The next due offset from the start, then moves past it.
    pub fn take(&mut self) -> Duration {
        let t = self.next;
        let mean = self.mean_gap_ns();
        self.next = match &mut self.poisson {
            Some(r) => t + exponential_gap(mean, r),
            None => {
                self.arrival += self.threads;
                self.due()
            }
        };
        t
    }

    pub fn peek(&self) -> Duration {
        self.next
    }

    /// Moves past every arrival due before `until`; returns how many of them were due at
    /// or after `from`. A constant schedule jumps there by its arrival numbers (a
    /// generator 10⁹ arrivals behind is not walked through one by one); Poisson arrivals
    /// are drawn, as they would have been.
    pub fn skip_before(&mut self, until: Duration, from: Duration) -> u64 {
        if self.poisson.is_some() {
            let mut counted = 0;
            while self.next < until {
                if self.take() >= from {
                    counted += 1;
                }
            }
            return counted;
        }
        let first_counted = self.first_at_or_after(from.max(self.next));
        let past = self.first_at_or_after(until);
        let counted = past.saturating_sub(first_counted) / self.threads;
        self.arrival = self.arrival.max(past);
        self.next = self.due();
        counted
    }

    /// Constant schedule: the number of this thread's first arrival at or after `t`, not
    /// before its next one.
    fn first_at_or_after(&self, t: Duration) -> u64 {
        let step = self.threads;
        let at = |n: u64| Duration::from_nanos((n as f64 * 1e9 / self.rate).round() as u64);
        // An estimate from the rate, then moved onto this thread's arrivals and corrected
        // for the rounding to whole nanoseconds.
        let guess = (t.as_secs_f64() * self.rate).floor() as u64;
        let mut n = if guess <= self.arrival {
            self.arrival
        } else {
            self.arrival + (guess - self.arrival) / step * step
        };
        while n >= self.arrival + step && at(n - step) >= t {
            n -= step;
        }
        while at(n) < t {
            n += step;
        }
        n
    }
}

/// An exponential gap of mean `mean_ns`, to the nanosecond.
fn exponential_gap(mean_ns: f64, r: &mut Pcg64) -> Duration {
    Duration::from_nanos((-mean_ns * (1.0 - r.gen::<f64>()).ln()).round() as u64)
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
    fn skipping_counts_the_arrivals_a_walk_would_take() {
        for (rate, threads, index) in [(3000.0, 3, 1), (1e9, 1, 0), (7.0, 2, 0), (1e8, 4, 3)] {
            for (until, from) in [(1_000_003u64, 0u64), (5_000_000, 2_000_001), (0, 0)] {
                let (until, from) = (Duration::from_nanos(until), Duration::from_nanos(from));
                let mut walked = Schedule::new(rate, threads, index, None);
                walked.take();
                let mut jumped = Schedule::new(rate, threads, index, None);
                jumped.take();
                let mut counted = 0;
                while walked.peek() < until {
                    if walked.take() >= from {
                        counted += 1;
                    }
                }
                assert_eq!(jumped.skip_before(until, from), counted, "{rate} {until:?}");
                assert_eq!(jumped.peek(), walked.peek());
            }
        }
        let mut poisson = Schedule::new(1000.0, 1, 0, Some(3));
        let n = poisson.skip_before(Duration::from_secs(10), Duration::from_secs(5));
        assert!((4700..5300).contains(&n), "{n}");
        assert!(poisson.peek() >= Duration::from_secs(10));
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
