//! When requests are due: a fixed interval or Poisson arrivals, as offsets in whole
//! nanoseconds from the test's start. One schedule is shared by every generator thread of
//! every agent: a share takes every `stride`-th arrival from `offset` (agent I of N,
//! thread t of T: offset I + N·t, stride N·T), so the union of the shares is the single
//! schedule's arrivals, each due to the nanosecond when one generator would have sent it —
//! Poisson too, whose shares all walk the one stream of gaps drawn from the seed.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::time::Duration;

/// One share's due times, as whole nanoseconds from the test's start.
pub struct Schedule {
    /// Arrivals per second of the whole schedule (every share together).
    rate: f64,
    stride: u64,
    /// Constant schedule: the number, in the single schedule, of the next arrival; this
    /// share takes `offset`, `offset + stride`, … Each due time is computed from its
    /// number, never by adding steps, so it does not drift and any share's arrival n is
    /// at exactly round(n · 10⁹ / rate) ns.
    arrival: u64,
    /// Poisson: the one stream of gaps (each rounded to the nanosecond), walked by every
    /// share; this one adds up `stride` of them between its arrivals.
    poisson: Option<Pcg64>,
    /// The next due time, computed once when the schedule moves past the previous one:
    /// the generator peeks at it on every pass of its loop.
    next: Duration,
}

impl Schedule {
    /// The share taking every `stride`-th arrival from `offset` of a schedule of `rate`
    /// requests/s (thread `index` of `threads` alone: `new(rate, threads, index, …)`).
    pub fn new(rate: f64, stride: usize, offset: usize, poisson_seed: Option<u64>) -> Self {
        let mut s = Schedule {
            rate,
            stride: stride.max(1) as u64,
            arrival: offset as u64,
            poisson: poisson_seed.map(Pcg64::seed_from_u64),
            next: Duration::ZERO,
        };
        s.next = match &mut s.poisson {
            // The single schedule's arrival `offset` comes after offset + 1 gaps.
            Some(r) => gaps(1e9 / rate, offset as u64 + 1, r),
            None => s.due(),
        };
        s
    }

    /// Constant schedule: the due time of arrival number `arrival`.
    fn due(&self) -> Duration {
        Duration::from_nanos((self.arrival as f64 * 1e9 / self.rate).round() as u64)
    }

    /// The next due offset from the start, then moves past it.
    pub fn take(&mut self) -> Duration {
        let t = self.next;
        self.next = match &mut self.poisson {
            Some(r) => t + gaps(1e9 / self.rate, self.stride, r),
            None => {
                self.arrival += self.stride;
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
        let counted = past.saturating_sub(first_counted) / self.stride;
        self.arrival = self.arrival.max(past);
        self.next = self.due();
        counted
    }

    /// Constant schedule: the number of this thread's first arrival at or after `t`, not
    /// before its next one.
    fn first_at_or_after(&self, t: Duration) -> u64 {
        let step = self.stride;
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

/// The sum of the stream's next `n` exponential gaps of mean `mean_ns`, each rounded to
/// the nanosecond (as the single schedule adds them one by one).
fn gaps(mean_ns: f64, n: u64, r: &mut Pcg64) -> Duration {
    let mut sum = 0u64;
    for _ in 0..n {
        sum += (-mean_ns * (1.0 - r.gen::<f64>()).ln()).round() as u64;
    }
    Duration::from_nanos(sum)
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

    /// Agents × threads, constant and Poisson: every share's due times together are the
    /// single schedule's, each to the nanosecond.
    #[test]
    fn every_share_of_agents_and_threads_makes_up_the_single_schedule() {
        for seed in [None, Some(11)] {
            let (agents, threads, per_share) = (3usize, 2usize, 5_000usize);
            let mut union: Vec<Duration> = Vec::new();
            for agent in 0..agents {
                for t in 0..threads {
                    let mut s = Schedule::new(2000.0, agents * threads, agent + agents * t, seed);
                    union.extend((0..per_share).map(|_| s.take()));
                }
            }
            union.sort();
            let mut one = Schedule::new(2000.0, 1, 0, seed);
            for (k, t) in union.iter().enumerate() {
                assert_eq!(*t, one.take(), "arrival {k} ({seed:?})");
            }
        }
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
