//! How far an agent's wall clock is from its coordinator's, by NTP's on-wire method
//! (RFC 5905 §8) over the agents' own connection: the agent sends at t1 (its clock), the
//! coordinator receives at t2 and answers at t3 (its clock), the agent receives at t4.
//! Offset θ = ((t2 − t1) + (t3 − t4)) / 2, round trip δ = (t4 − t1) − (t3 − t2). Of several
//! rounds the one with the least δ is kept (NTP's clock filter, §10): a round delayed on
//! one leg is the one that errs, and its error is at most δ / 2.
//! Written here because the SNTP crates (rsntp, sntpc) speak only to NTP servers on UDP.

/// One round, each time in nanoseconds since the Unix epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Round {
    pub t1: i64,
    pub t2: i64,
    pub t3: i64,
    pub t4: i64,
}

/// The coordinator's clock minus the agent's, and the round trip it was measured over:
/// the true offset lies within `round_trip / 2` of `offset` (any asymmetry of the two
/// legs is inside the round trip).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offset {
    pub offset_ns: i64,
    pub round_trip_ns: i64,
}

impl Offset {
    /// The most the offset can be wrong by.
    pub fn uncertainty_ns(self) -> i64 {
        self.round_trip_ns / 2
    }
}

impl Round {
    pub fn offset(self) -> Offset {
        // i128: the sums of two epoch times in nanoseconds pass i64's range.
        let sum = (self.t2 as i128 - self.t1 as i128) + (self.t3 as i128 - self.t4 as i128);
        let delay = (self.t4 - self.t1) - (self.t3 - self.t2);
        Offset {
            offset_ns: (sum.div_euclid(2)) as i64,
            // A round trip below zero is clock noise on one side: none is shorter than 0.
            round_trip_ns: delay.max(0),
        }
    }
}

/// The offset of the round with the least round trip (None for no rounds).
pub fn best(rounds: &[Round]) -> Option<Offset> {
    rounds
        .iter()
        .map(|r| r.offset())
        .min_by_key(|o| o.round_trip_ns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_and_round_trip_as_rfc_5905_defines_them() {
        // Hand-worked: the coordinator is 5 ms ahead; 1 ms out, 3 ms back, 0.5 ms inside.
        // t1 = 0 (agent), t2 = 0 + 1 + 5 = 6 ms, t3 = 6.5 ms, t4 = 6.5 − 5 + 3 = 4.5 ms.
        let ms = 1_000_000;
        let r = Round {
            t1: 0,
            t2: 6 * ms,
            t3: 6 * ms + ms / 2,
            t4: 4 * ms + ms / 2,
        };
        let o = r.offset();
        // θ = ((6 − 0) + (6.5 − 4.5)) / 2 = 4 ms: 1 ms off the true 5 ms, which is half the
        // legs' difference (3 − 1) and within δ / 2 = (4.5 − 0.5) / 2 = 2 ms.
        assert_eq!(o.offset_ns, 4 * ms);
        assert_eq!(o.round_trip_ns, 4 * ms);
        assert!((5 * ms - o.offset_ns).abs() <= o.uncertainty_ns());
    }

    #[test]
    fn the_round_with_the_least_round_trip_is_kept() {
        let base = 1_790_000_000_000_000_000i64; // a real epoch time: sums overflow i64
        let round = |out: i64, back: i64| Round {
            t1: base,
            t2: base + out - 250,
            t3: base + out - 250 + 10,
            t4: base + out + 10 + back,
        };
        // True offset −250 ns (the coordinator behind); legs symmetric in the best round.
        let rounds = [round(9_000, 1_000), round(400, 400), round(1_000, 30_000)];
        let o = best(&rounds).unwrap();
        assert_eq!(
            o,
            Offset {
                offset_ns: -250,
                round_trip_ns: 800
            }
        );
        assert_eq!(best(&[]), None);
    }
}
