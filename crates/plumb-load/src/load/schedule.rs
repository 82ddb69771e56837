//! When requests are due: a fixed interval or Poisson arrivals, as offsets in seconds from
//! the test's start. With several threads each takes every n-th request of one schedule's
//! rate (its own phase, or its own Poisson stream at rate/n: the superposition of
//! independent Poisson streams is Poisson), so together they offer exactly the rate asked.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

pub struct Schedule {
    next_s: f64,
    step_s: f64,
    poisson: Option<Pcg64>,
}

impl Schedule {
    /// Thread `index` of `threads` sharing `rate` requests/s.
    pub fn new(rate: f64, threads: usize, index: usize, poisson_seed: Option<u64>) -> Self {
        let step_s = threads as f64 / rate;
        let mut s = Schedule {
            next_s: 0.0,
            step_s,
            poisson: poisson_seed.map(|seed| Pcg64::seed_from_u64(seed.wrapping_add(index as u64))),
        };
        if s.poisson.is_some() {
            s.next_s = s.gap();
        } else {
            s.next_s = index as f64 / rate;
        }
        s
    }

    fn gap(&mut self) -> f64 {
        match self.poisson.as_mut() {
            Some(r) => -self.step_s * (1.0 - r.gen::<f64>()).ln(),
            None => self.step_s,
        }
    }

    /// The next due offset (seconds from the start), then moves past it.
    pub fn take(&mut self) -> f64 {
        let t = self.next_s;
        self.next_s += self.gap();
        t
    }

    pub fn peek(&self) -> f64 {
        self.next_s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_interleave_into_the_single_thread_schedule() {
        let mut all: Vec<f64> = (0..3)
            .flat_map(|i| {
                let mut s = Schedule::new(1000.0, 3, i, None);
                (0..100).map(move |_| s.take())
            })
            .collect();
        all.sort_by(f64::total_cmp);
        let mut one = Schedule::new(1000.0, 1, 0, None);
        for t in &all {
            assert!((t - one.take()).abs() < 1e-12);
        }
    }

    #[test]
    fn poisson_streams_together_average_the_rate() {
        let n = 200_000;
        let mut last = 0.0f64;
        for i in 0..2 {
            let mut s = Schedule::new(1000.0, 2, i, Some(7));
            for _ in 0..n / 2 {
                last = last.max(s.take());
            }
        }
        // n arrivals of a 1000/s process take n/1000 s, within 1 % at this n.
        assert!(
            (last - n as f64 / 1000.0).abs() < 0.01 * n as f64 / 1000.0,
            "{last}"
        );
    }
}
