//! How far an agent's wall clock is from its coordinator's, by NTP's on-wire method
//! (RFC 5905 §8) over the agents' own connection: the agent sends at t1 (its clock), the
//! coordinator receives at t2 and answers at t3 (its clock), the agent receives at t4.
//! Offset θ = ((t2 − t1) + (t3 − t4)) / 2, round trip δ = (t4 − t1) − (t3 − t2). Of several
//! rounds the one with the least δ is kept (NTP's clock filter, §10): a round delayed on
//! one leg is the one that errs, and its error is at most δ / 2.
//! Written here because the SNTP crates (rsntp, sntpc) speak only to NTP servers on UDP.
use plumb_model::quantity::{Duration, Timestamp};
use serde::{Deserialize, Serialize};
use std::time::SystemTime;

/// How far one wall clock reads from another, either way (plumb_model's `Duration` is a
/// length, never negative): positive when the coordinator's reads later than the
/// agent's. Nanoseconds on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ClockOffset {
    nanos: i64,
}

impl ClockOffset {
    pub const fn from_nanos(nanos: i64) -> ClockOffset {
        ClockOffset { nanos }
    }

    pub const fn as_nanos(self) -> i64 {
        self.nanos
    }

    /// `later − earlier`, either way.
    pub fn between(later: Timestamp, earlier: Timestamp) -> ClockOffset {
        let d = later.as_unix_nanos() as i128 - earlier.as_unix_nanos() as i128;
        ClockOffset::from_nanos(d.clamp(i64::MIN as i128, i64::MAX as i128) as i64)
    }

    /// How far, whichever way.
    pub fn magnitude(self) -> Duration {
        Duration::from_nanos(self.nanos.unsigned_abs())
    }

    /// A moment of the agent's clock on the coordinator's (`+ offset`).
    pub fn to_coordinator(self, agent: Timestamp) -> Timestamp {
        shift(agent, self.nanos as i128)
    }

    /// A moment of the coordinator's clock on the agent's (`− offset`).
    pub fn to_agent(self, coordinator: Timestamp) -> Timestamp {
        shift(coordinator, -(self.nanos as i128))
    }

    pub fn to_agent_system(self, coordinator: Timestamp) -> SystemTime {
        self.to_agent(coordinator).to_system_time()
    }

    /// Which way the agent's clock is from the coordinator's: "1.2 ms behind" (it reads
    /// earlier), "… ahead", "level".
    pub fn way(self) -> String {
        let size = plumb_model::format::time(self.magnitude());
        match self.nanos {
            0 => "level".to_string(),
            n if n > 0 => format!("{size} behind"),
            _ => format!("{size} ahead"),
        }
    }

    /// `way` before another clock's name: "1.2 ms behind", "… ahead of", "level with".
    pub fn way_of(self) -> String {
        let way = self.way();
        match self.nanos {
            0 => format!("{way} with"),
            n if n > 0 => way,
            _ => format!("{way} of"),
        }
    }
}

fn shift(t: Timestamp, by: i128) -> Timestamp {
    let n = (t.as_unix_nanos() as i128 + by).clamp(0, u64::MAX as i128);
    Timestamp::from_unix_nanos(n as u64)
}

/// One round: t1 and t4 on the agent's clock, t2 and t3 on the coordinator's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Round {
    pub t1: Timestamp,
    pub t2: Timestamp,
    pub t3: Timestamp,
    pub t4: Timestamp,
}

/// The coordinator's clock against the agent's, and the round trip it was measured
/// over: the true offset lies within `round_trip / 2` of `offset` (any asymmetry of the
/// two legs is inside the round trip).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offset {
    pub offset: ClockOffset,
    pub round_trip: Duration,
}

impl Offset {
    /// The most the offset can be wrong by.
    pub fn uncertainty(self) -> Duration {
        self.round_trip.div_u64(2)
    }
}

impl Round {
    pub fn offset(self) -> Offset {
        let d = |a: Timestamp, b: Timestamp| a.as_unix_nanos() as i128 - b.as_unix_nanos() as i128;
        let sum = d(self.t2, self.t1) + d(self.t3, self.t4);
        // A round trip below zero is clock noise on one side: none is shorter than 0.
        let delay = (d(self.t4, self.t1) - d(self.t3, self.t2)).max(0);
        // Clamped, not wrapped: absurd times give an absurd offset and a huge round trip
        // (never chosen as the best round), not a small one.
        let half = sum.div_euclid(2).clamp(i64::MIN as i128, i64::MAX as i128);
        Offset {
            offset: ClockOffset::from_nanos(half as i64),
            round_trip: Duration::from_nanos(delay.min(u64::MAX as i128) as u64),
        }
    }
}

/// The offset of the round with the least round trip (None for no rounds).
pub fn best(rounds: &[Round]) -> Option<Offset> {
    rounds
        .iter()
        // A coordinator that answered before it received is not a round to trust.
        .filter(|r| r.t3 >= r.t2)
        .map(|r| r.offset())
        .min_by_key(|o| o.round_trip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offset_is_said_as_which_way_the_clock_is() {
        // Positive: the coordinator's clock reads later, so the agent's is behind.
        let said = |n| ClockOffset::from_nanos(n).way_of();
        assert_eq!(said(1_500_000), "1.500 ms behind");
        assert_eq!(said(-20_000), "20.00 µs ahead of");
        assert_eq!(said(0), "level with");
    }

    fn at(ns: u64) -> Timestamp {
        Timestamp::from_unix_nanos(ns)
    }

    #[test]
    fn offset_and_round_trip_as_rfc_5905_defines_them() {
        // Hand-worked: the coordinator is 5 ms ahead; 1 ms out, 3 ms back, 0.5 ms inside.
        // t1 = 10 ms (agent), t2 = 10 + 1 + 5 = 16 ms, t3 = 16.5 ms, t4 = 16.5 − 5 + 3 = 14.5 ms.
        let ms = 1_000_000;
        let r = Round {
            t1: at(10 * ms),
            t2: at(16 * ms),
            t3: at(16 * ms + ms / 2),
            t4: at(14 * ms + ms / 2),
        };
        let o = r.offset();
        // θ = ((16 − 10) + (16.5 − 14.5)) / 2 = 4 ms: 1 ms off the true 5 ms, which is half
        // the legs' difference (3 − 1), within δ / 2 = ((14.5 − 10) − 0.5) / 2 = 2 ms.
        assert_eq!(o.offset, ClockOffset::from_nanos(4 * ms as i64));
        assert_eq!(o.round_trip, Duration::from_nanos(4 * ms));
        assert!((5 * ms as i64 - o.offset.as_nanos()).unsigned_abs() <= o.uncertainty().as_nanos());
    }

    #[test]
    fn the_round_with_the_least_round_trip_is_kept() {
        let base = 1_790_000_000_000_000_000u64; // a real epoch time: sums pass i64
        let round = |out: u64, back: u64| Round {
            t1: at(base),
            t2: at(base + out - 250),
            t3: at(base + out - 250 + 10),
            t4: at(base + out + 10 + back),
        };
        // True offset −250 ns (the coordinator behind); legs symmetric in the best round.
        let rounds = [round(9_000, 1_000), round(400, 400), round(1_000, 30_000)];
        let o = best(&rounds).unwrap();
        assert_eq!(o.offset, ClockOffset::from_nanos(-250));
        assert_eq!(o.round_trip, Duration::from_nanos(800));
        assert_eq!(best(&[]), None);
    }

    #[test]
    fn moments_move_between_the_clocks_both_ways() {
        let o = ClockOffset::between(at(5_000), at(3_000));
        assert_eq!(o.as_nanos(), 2_000);
        assert_eq!(o.to_coordinator(at(3_000)), at(5_000));
        assert_eq!(o.to_agent(at(5_000)), at(3_000));
        assert_eq!(
            ClockOffset::between(at(3_000), at(5_000)).as_nanos(),
            -2_000
        );
        assert_eq!(o.magnitude(), Duration::from_nanos(2_000));
    }

    #[test]
    fn absurd_rounds_neither_wrap_nor_win() {
        // A coordinator's answer "sent" before it was "received" is left out; times at
        // the ends of the range give a clamped offset and a round trip too long to win.
        let sane = Round {
            t1: at(1_000),
            t2: at(1_500),
            t3: at(1_600),
            t4: at(2_000),
        };
        let backwards = Round {
            t1: at(1_000),
            t2: at(u64::MAX),
            t3: at(0),
            t4: at(1_001),
        };
        let far = Round {
            t1: at(0),
            t2: at(u64::MAX),
            t3: at(u64::MAX),
            t4: at(u64::MAX),
        };
        assert_eq!(best(&[backwards]), None);
        assert_eq!(best(&[backwards, far, sane]), Some(sane.offset()));
        let o = far.offset();
        assert_eq!(o.offset.as_nanos(), i64::MAX);
        assert_eq!(o.round_trip, Duration::from_nanos(u64::MAX));
    }
}
