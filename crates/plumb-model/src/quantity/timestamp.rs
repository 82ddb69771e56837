//! A moment on the wall clock: when a run started, where a load test's measured window lay.

use super::{Duration, QuantityError};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// A moment on the wall clock (UTC), exact to the nanosecond: nanoseconds since the Unix
/// epoch. Moments before 1970 are not representable (no result was measured then).
///
/// JSON and `Display`: RFC 3339 in UTC with nanoseconds, `2026-11-25T09:48:41.123456789Z`
/// (an integer of nanoseconds since the epoch would pass 2^53, where JSON readers in
/// JavaScript lose digits; a float of seconds loses the nanoseconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Timestamp {
    unix_nanos: u64,
}

impl Timestamp {
    /// The Unix epoch, which also stands for "unknown" in results read from formats
    /// that did not record a time.
    pub const EPOCH: Timestamp = Timestamp { unix_nanos: 0 };

    /// The system's wall clock now (the epoch if it is set before 1970).
    pub fn now() -> Timestamp {
        SystemTime::now().into()
    }

    pub const fn from_unix_nanos(unix_nanos: u64) -> Timestamp {
        Timestamp { unix_nanos }
    }

    /// From fractional Unix seconds (older formats, other tools); negative and NaN are the
    /// epoch. Rounded to the microsecond: an f64 of seconds since 1970 holds no more.
    pub fn from_unix_secs_f64(secs: f64) -> Timestamp {
        let micros = if secs > 0.0 {
            (secs * 1e6).round()
        } else {
            0.0
        };
        Timestamp {
            unix_nanos: (micros as u64).saturating_mul(1_000),
        }
    }

    pub const fn as_unix_nanos(self) -> u64 {
        self.unix_nanos
    }

    pub fn as_unix_secs_f64(self) -> f64 {
        self.unix_nanos as f64 / 1e9
    }

    /// Whether this is the epoch: a time that was not recorded.
    pub fn is_unknown(self) -> bool {
        self.unix_nanos == 0
    }

    /// How long after `earlier` this is; zero when it is not after it.
    pub fn since(self, earlier: Timestamp) -> Duration {
        Duration::from_nanos(self.unix_nanos.saturating_sub(earlier.unix_nanos))
    }

    /// This moment moved later by `d` (saturating).
    pub fn plus(self, d: Duration) -> Timestamp {
        Timestamp {
            unix_nanos: self.unix_nanos.saturating_add(d.as_nanos()),
        }
    }

    pub fn to_system_time(self) -> SystemTime {
        UNIX_EPOCH + std::time::Duration::from_nanos(self.unix_nanos)
    }

    /// The civil date and time in UTC: (year, month, day, hour, minute, second).
    pub fn civil_utc(self) -> (i64, u32, u32, u32, u32, u32) {
        let secs = (self.unix_nanos / 1_000_000_000) as i64;
        let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
        // Howard Hinnant's civil-from-days: exact for every day since the epoch.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let y = yoe + era * 400 + i64::from(m <= 2);
        let rem = rem as u32;
        (y, m, d, rem / 3600, rem % 3600 / 60, rem % 60)
    }
}

impl From<SystemTime> for Timestamp {
    fn from(t: SystemTime) -> Self {
        let nanos = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        Timestamp {
            unix_nanos: u64::try_from(nanos).unwrap_or(u64::MAX),
        }
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}",
            humantime::format_rfc3339_nanos(self.to_system_time())
        )
    }
}

impl std::str::FromStr for Timestamp {
    type Err = super::QuantityError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        humantime::parse_rfc3339(s.trim())
            .map(Timestamp::from)
            .map_err(|e| {
                super::QuantityError::new(
                    s,
                    format!("is not an RFC 3339 time in UTC ({e})"),
                    "2026-11-25T09:48:41Z",
                )
            })
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A moment as Unix seconds (`$(date +%s)`, fractions allowed) or RFC 3339 in UTC
/// (`2026-11-25T09:48:41Z`): `--start-at`.
pub fn parse_moment(s: &str) -> Result<Timestamp, QuantityError> {
    if s.contains('T') {
        return s.parse::<Timestamp>();
    }
    const EXAMPLE: &str = "$(date +%s), 2026-11-25T09:48:41Z";
    let v: f64 = (s.trim().parse())
        .map_err(|_| QuantityError::new(s, "is not a number of seconds since 1970", EXAMPLE))?;
    if v.is_finite() && v > 0.0 && v < 1e11 {
        Ok(Timestamp::from_unix_secs_f64(v))
    } else {
        Err(QuantityError::new(
            s,
            "is not a Unix time (seconds since 1970)",
            EXAMPLE,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// References: `date -u -d @SECONDS '+%FT%T'`.
    #[test]
    fn civil_dates() {
        let at = |s: f64| Timestamp::from_unix_secs_f64(s).civil_utc();
        assert_eq!(at(0.5), (1970, 1, 1, 0, 0, 0));
        assert_eq!(at(1795461909.65), (2026, 11, 23, 19, 25, 9));
        assert_eq!(at(951782400.0), (2000, 2, 29, 0, 0, 0));
    }

    #[test]
    fn json_is_rfc3339_with_nanoseconds_and_reads_back() {
        let t = Timestamp::from_unix_nanos(1_795_461_909_123_456_789);
        let j = serde_json::to_string(&t).unwrap();
        assert_eq!(j, "\"2026-11-23T19:25:09.123456789Z\"");
        assert_eq!(serde_json::from_str::<Timestamp>(&j).unwrap(), t);
        assert_eq!(
            "2026-11-23T19:25:09Z".parse::<Timestamp>().unwrap(),
            Timestamp::from_unix_nanos(1_795_461_909_000_000_000)
        );
        let e = serde_json::from_str::<Timestamp>("\"yesterday\"").unwrap_err();
        assert!(e.to_string().contains("RFC 3339"), "{e}");
    }

    #[test]
    fn seconds_as_float_are_kept_to_the_microsecond() {
        let t = Timestamp::from_unix_secs_f64(1795461909.654321);
        assert_eq!(t.as_unix_nanos(), 1_795_461_909_654_321_000);
        assert_eq!(Timestamp::from_unix_secs_f64(f64::NAN), Timestamp::EPOCH);
        let later = t.plus(Duration::from_millis(1500));
        assert_eq!(later.since(t), Duration::from_millis(1500));
        assert_eq!(t.since(later), Duration::ZERO);
    }

    #[test]
    fn a_moment_is_unix_seconds_or_rfc_3339() {
        let t = parse_moment("1764409721").unwrap();
        assert_eq!(t, parse_moment("2025-11-29T09:48:41Z").unwrap());
        assert_eq!(
            parse_moment("1764409721.5").unwrap().since(t).as_secs_f64(),
            0.5
        );
        for bad in ["soon", "-5", "0", "100000000000", "inf"] {
            assert!(parse_moment(bad).is_err(), "{bad}");
        }
    }
}
