//! Rounds of runs: the order of commands in each round, and whether another round is due.
use crate::{Order, RunCount};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::time::Duration;

/// The order of the `k` runs of one round.
pub struct RoundSequence {
    order: Order,
    rng: Pcg64,
    k: usize,
}

impl RoundSequence {
    pub fn new(order: Order, k: usize) -> Self {
        let seed = match order {
            Order::Shuffle { seed } => seed,
            Order::RoundRobin | Order::Duet { .. } => 0,
        };
        RoundSequence {
            order,
            rng: Pcg64::seed_from_u64(seed),
            k,
        }
    }

    /// Indices of the commands in round `r`.
    pub fn round(&mut self, r: u64) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.k).collect();
        match self.order {
            Order::RoundRobin => idx.rotate_left((r % self.k as u64) as usize),
            Order::Shuffle { .. } => idx.shuffle(&mut self.rng),
            // Both at once (the runner's `run_pair`); this order is only their slots'.
            Order::Duet { .. } => {}
        }
        idx
    }
}

/// Whether another measured round is due, given the rounds done and the measured time
/// per command so far (the sum of its samples, averaged over the commands).
pub fn another_round(runs: &RunCount, rounds: u64, measured_per_command: Duration) -> bool {
    match *runs {
        RunCount::Fixed(n) => rounds < n,
        RunCount::Adaptive {
            min_runs,
            max_runs,
            min_time,
            max_time,
        } => {
            if max_runs.is_some_and(|m| rounds >= m) {
                return false;
            }
            // A hard cap, but never below the two samples a spread needs.
            if rounds >= 2 && max_time.is_some_and(|t| measured_per_command >= t) {
                return false;
            }
            rounds < min_runs || measured_per_command < min_time
        }
    }
}

/// The expected number of rounds, for a progress bar; re-estimated as rounds complete.
pub fn planned_rounds(runs: &RunCount, rounds: u64, measured_per_command: Duration) -> u64 {
    match *runs {
        RunCount::Fixed(n) => n,
        RunCount::Adaptive {
            min_runs,
            max_runs,
            min_time,
            max_time,
        } => {
            if rounds == 0 || measured_per_command.is_zero() {
                return min_runs;
            }
            let per_round = measured_per_command.as_secs_f64() / rounds as f64;
            let mut want = (min_time.as_secs_f64() / per_round).ceil() as u64;
            if let Some(t) = max_time {
                want = want.min((t.as_secs_f64() / per_round).ceil() as u64);
            }
            let want = want.max(min_runs);
            max_runs.map_or(want, |m| want.min(m)).max(rounds)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_rotates_the_start() {
        let mut o = RoundSequence::new(Order::RoundRobin, 3);
        assert_eq!(o.round(0), [0, 1, 2]);
        assert_eq!(o.round(1), [1, 2, 0]);
        assert_eq!(o.round(2), [2, 0, 1]);
        assert_eq!(o.round(3), [0, 1, 2]);
    }

    #[test]
    fn shuffle_is_a_permutation_and_seeded() {
        let mut a = RoundSequence::new(Order::Shuffle { seed: 9 }, 5);
        let mut b = RoundSequence::new(Order::Shuffle { seed: 9 }, 5);
        let mut seen_other_than_identity = false;
        for r in 0..20 {
            let x = a.round(r);
            assert_eq!(x, b.round(r));
            let mut s = x.clone();
            s.sort();
            assert_eq!(s, [0, 1, 2, 3, 4]);
            seen_other_than_identity |= x != [0, 1, 2, 3, 4];
        }
        assert!(seen_other_than_identity);
    }

    const ADAPTIVE: RunCount = RunCount::Adaptive {
        min_runs: 10,
        max_runs: Some(100),
        min_time: Duration::from_secs(3),
        max_time: Some(Duration::from_secs(60)),
    };

    #[test]
    fn adaptive_runs_until_min_runs_and_min_time() {
        let s = Duration::from_secs;
        assert!(another_round(&ADAPTIVE, 5, s(10)), "below min runs");
        assert!(another_round(&ADAPTIVE, 20, s(2)), "below min time");
        assert!(!another_round(&ADAPTIVE, 20, s(3)), "both met");
        assert!(!another_round(&ADAPTIVE, 100, s(1)), "max runs");
        assert!(
            !another_round(&ADAPTIVE, 5, s(61)),
            "max time beats min runs"
        );
        assert!(
            another_round(&ADAPTIVE, 1, s(61)),
            "but two samples at least"
        );
        assert!(another_round(&RunCount::Fixed(3), 2, s(100)));
        assert!(!another_round(&RunCount::Fixed(3), 3, s(0)));
    }

    #[test]
    fn planned_rounds_extrapolates_within_bounds() {
        let ms = Duration::from_millis;
        // 10 rounds took 100 ms per command: 3 s needs 300 rounds, capped at 100.
        assert_eq!(planned_rounds(&ADAPTIVE, 10, ms(100)), 100);
        // 10 rounds took 1 s: 30 rounds.
        assert_eq!(planned_rounds(&ADAPTIVE, 10, ms(1000)), 30);
        assert_eq!(planned_rounds(&ADAPTIVE, 0, ms(0)), 10);
    }
}
