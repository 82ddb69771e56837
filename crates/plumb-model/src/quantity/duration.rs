//! A span of time exact to the picosecond (`Duration`): parsed and displayed with its unit.
use super::decimal::{parse_exact, parse_shifted};
use super::QuantityError;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A span of time, exact to the picosecond (divan's `FineDuration`), so a per-operation
/// time well under a nanosecond is not rounded away and sums do not drift.
///
/// Text: a number and a unit, `ps ns us µs ms s m h` (`500ms`, `2.5s`, `250us`); a bare
/// number is refused (is `5` seconds or microseconds?) except `0`. Display writes the
/// largest unit the value reaches, exactly (`1.5ms`, `250µs`), so it reads back unchanged.
/// JSON: a number of nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Duration {
    picos: u128,
}

/// (suffix, picoseconds per unit), longest suffixes first so `ms` is not read as `m`.
const UNITS: [(&str, u128); 9] = [
    ("ps", 1),
    ("ns", 1_000),
    ("us", 1_000_000),
    ("µs", 1_000_000),
    ("ms", 1_000_000_000),
    ("min", 60_000_000_000_000),
    ("s", 1_000_000_000_000),
    ("m", 60_000_000_000_000),
    ("h", 3_600_000_000_000_000),
];

/// Options longer than this are typing mistakes; it also keeps every conversion to
/// `std::time::Duration` and to f64 nanoseconds exact enough.
const MAX_PICOS: u128 = 366 * 24 * 3_600_000_000_000_000;

const EXAMPLE: &str = "500ms, 2s, 250us";

impl Duration {
    pub const ZERO: Duration = Duration { picos: 0 };

    pub const fn from_picos(picos: u128) -> Self {
        Duration { picos }
    }
    pub const fn from_nanos(ns: u64) -> Self {
        Duration {
            picos: ns as u128 * 1_000,
        }
    }
    pub const fn from_micros(us: u64) -> Self {
        Duration {
            picos: us as u128 * 1_000_000,
        }
    }
    pub const fn from_millis(ms: u64) -> Self {
        Duration {
            picos: ms as u128 * 1_000_000_000,
        }
    }
    pub const fn from_secs(s: u64) -> Self {
        Duration {
            picos: s as u128 * 1_000_000_000_000,
        }
    }
    /// From fractional nanoseconds; negative and NaN become zero.
    pub fn from_nanos_f64(ns: f64) -> Self {
        Duration {
            picos: if ns > 0.0 {
                (ns * 1e3).round() as u128
            } else {
                0
            },
        }
    }
    pub fn from_secs_f64(s: f64) -> Self {
        Self::from_nanos_f64(s * 1e9)
    }

    pub const fn as_picos(self) -> u128 {
        self.picos
    }
    /// Whole nanoseconds, rounded down, saturating at u64::MAX.
    pub fn as_nanos(self) -> u64 {
        u64::try_from(self.picos / 1_000).unwrap_or(u64::MAX)
    }
    pub fn as_nanos_f64(self) -> f64 {
        self.picos as f64 / 1e3
    }
    pub fn as_micros_f64(self) -> f64 {
        self.picos as f64 / 1e6
    }
    pub fn as_secs_f64(self) -> f64 {
        self.picos as f64 / 1e12
    }
    /// This duration divided by `n` (a mean), to the picosecond; zero for `n` = 0.
    pub fn div_u64(self, n: u64) -> Duration {
        Duration {
            picos: self.picos.checked_div(u128::from(n)).unwrap_or(0),
        }
    }
    pub fn is_zero(self) -> bool {
        self.picos == 0
    }
    /// The nearest `std::time::Duration` (whole nanoseconds).
    pub fn to_std(self) -> std::time::Duration {
        std::time::Duration::from_nanos(self.as_nanos())
    }
}

impl std::ops::Add for Duration {
    type Output = Duration;
    fn add(self, other: Duration) -> Duration {
        Duration {
            picos: self.picos.saturating_add(other.picos),
        }
    }
}

impl std::ops::AddAssign for Duration {
    fn add_assign(&mut self, other: Duration) {
        *self = *self + other;
    }
}

/// Saturating: a duration is never negative.
impl std::ops::Sub for Duration {
    type Output = Duration;
    fn sub(self, other: Duration) -> Duration {
        Duration {
            picos: self.picos.saturating_sub(other.picos),
        }
    }
}

impl std::iter::Sum for Duration {
    fn sum<I: Iterator<Item = Duration>>(iter: I) -> Duration {
        iter.fold(Duration::ZERO, |a, b| a + b)
    }
}

impl From<std::time::Duration> for Duration {
    fn from(d: std::time::Duration) -> Self {
        Duration {
            picos: d.as_nanos() * 1_000,
        }
    }
}

impl FromStr for Duration {
    type Err = QuantityError;

    fn from_str(s: &str) -> Result<Self, QuantityError> {
        let t = s.trim();
        let Some((num, per_unit)) = UNITS
            .iter()
            .find_map(|&(suffix, p)| t.strip_suffix(suffix).map(|n| (n.trim(), p)))
        else {
            return Err(match parse_shifted(t, 0) {
                Some(0.0) => return Ok(Duration::ZERO),
                Some(_) => QuantityError::new(s, "needs a unit", format!("{t}ms, {t}s")),
                None => QuantityError::new(s, "is not a duration", EXAMPLE),
            });
        };
        if num.starts_with('-') && parse_shifted(num, 0).is_some() {
            return Err(QuantityError::new(s, "is negative", EXAMPLE));
        }
        let (digits, exp) =
            parse_exact(num).ok_or_else(|| QuantityError::new(s, "is not a duration", EXAMPLE))?;
        // digits × 10^exp × per_unit picoseconds, in integers: exact, rounded to the
        // nearest picosecond only when finer than that.
        let too_long = || QuantityError::new(s, "is longer than a year", EXAMPLE);
        let scaled = digits.checked_mul(per_unit).ok_or_else(too_long)?;
        let picos = if exp >= 0 {
            10u128
                .checked_pow(exp as u32)
                .and_then(|p| scaled.checked_mul(p))
                .ok_or_else(too_long)?
        } else {
            match 10u128.checked_pow(exp.unsigned_abs()) {
                Some(p) => (scaled + p / 2) / p,
                None => 0,
            }
        };
        if picos > MAX_PICOS {
            return Err(too_long());
        }
        Ok(Duration { picos })
    }
}

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (suffix, per) = [
            ("s", 1_000_000_000_000u128),
            ("ms", 1_000_000_000),
            ("µs", 1_000_000),
            ("ns", 1_000),
        ]
        .into_iter()
        .find(|&(_, per)| self.picos >= per)
        .unwrap_or(("ps", 1));
        let (whole, frac) = (self.picos / per, self.picos % per);
        if frac == 0 {
            return write!(f, "{whole}{suffix}");
        }
        let digits = per.ilog10() as usize;
        let frac = format!("{frac:0digits$}");
        write!(f, "{whole}.{}{suffix}", frac.trim_end_matches('0'))
    }
}

impl Serialize for Duration {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Whole nanoseconds as an integer, exactly; a fraction of a nanosecond as an f64,
        // unless the f64 cannot hold it (a long duration: the f64 is whole, and the
        // fraction is lost either way), when it is the integer rounded — so that what is
        // read back is written the same (cargo fuzz found both forms of one duration).
        let ns = self.as_nanos_f64();
        // From 10¹² ns (about 17 minutes) an f64 cannot hold the three decimals as well
        // (cargo fuzz: 000000004431.028339443438210039s drifted one digit a round trip).
        if self.picos.is_multiple_of(1_000) || ns.fract() == 0.0 || ns >= 1e12 {
            let ns = (self.picos + 500) / 1_000;
            s.serialize_u64(u64::try_from(ns).unwrap_or(u64::MAX))
        } else {
            s.serialize_f64(ns)
        }
    }
}

impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NanosVisitor)
    }
}

/// Nanoseconds as written: a whole number read exactly (an f64 holds whole nanoseconds
/// exactly only below 2⁵³, about 104 days; the fuzzer found a duration it changed), a
/// fraction as the f64 it is.
struct NanosVisitor;

impl serde::de::Visitor<'_> for NanosVisitor {
    type Value = Duration;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a duration in nanoseconds")
    }

    fn visit_u64<E: serde::de::Error>(self, ns: u64) -> Result<Duration, E> {
        Ok(Duration {
            picos: u128::from(ns) * 1_000,
        })
    }

    fn visit_i64<E: serde::de::Error>(self, ns: i64) -> Result<Duration, E> {
        u64::try_from(ns)
            .map_err(|_| E::custom(format!("{ns} is not a duration in nanoseconds")))
            .and_then(|ns| self.visit_u64(ns))
    }

    fn visit_f64<E: serde::de::Error>(self, ns: f64) -> Result<Duration, E> {
        if ns.is_finite() && ns >= 0.0 {
            Ok(Duration::from_nanos_f64(ns))
        } else {
            Err(E::custom(format!("{ns} is not a duration in nanoseconds")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cargo fuzz (quantities): a duration whose picoseconds an f64 cannot hold is written
    /// as what reading it gives back, so reading and writing again changes nothing.
    #[test]
    fn a_long_fractional_duration_is_written_the_same_after_reading() {
        let d: Duration = "000000004431.028339443438210039s".parse().unwrap();
        let json = serde_json::to_string(&d).unwrap();
        let back: Duration = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
    }

    /// Whole nanoseconds beyond 2⁵³ are read back exactly (cargo fuzz found
    /// "9050550.15055s" coming back 384 ps short through an f64).
    #[test]
    fn whole_nanoseconds_are_read_back_exactly() {
        let d: Duration = "9050550.15055s".parse().unwrap();
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(json, "9050550150550000");
        assert_eq!(serde_json::from_str::<Duration>(&json).unwrap(), d);
        assert!(serde_json::from_str::<Duration>("-5").is_err());
        assert_eq!(
            serde_json::from_str::<Duration>("1.5").unwrap().to_string(),
            "1.5ns"
        );
        // A sub-ns part beyond an f64's reach is rounded once, and the form is stable.
        let d: Duration = "19005550.1758187501s".parse().unwrap();
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(json, "19005550175818750");
        let back: Duration = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        // 1 ps past a whole ns, where an f64 of the ns has no room for it: an integer.
        let d: Duration = "19015.507581870001s".parse().unwrap();
        assert_eq!(serde_json::to_string(&d).unwrap(), "19015507581870");
    }

    fn d(s: &str) -> Duration {
        s.parse().unwrap()
    }

    #[test]
    fn reads_every_unit() {
        assert_eq!(d("500ms"), Duration::from_millis(500));
        assert_eq!(d("2.5s"), Duration::from_millis(2500));
        assert_eq!(d("250us"), Duration::from_micros(250));
        assert_eq!(d("250µs"), Duration::from_micros(250));
        assert_eq!(d("1.5ns").as_picos(), 1500);
        assert_eq!(d("7ps").as_picos(), 7);
        assert_eq!(d("2m"), Duration::from_secs(120));
        assert_eq!(d("2min"), Duration::from_secs(120));
        assert_eq!(d("1h"), Duration::from_secs(3600));
        assert_eq!(d(" 3 s "), Duration::from_secs(3));
        assert_eq!(d("0"), Duration::ZERO);
    }

    #[test]
    fn a_bare_number_needs_a_unit_and_says_so() {
        let e = "5".parse::<Duration>().unwrap_err();
        assert_eq!(e.to_string(), "`5` needs a unit (e.g. 5ms, 5s)");
        assert!("fast"
            .parse::<Duration>()
            .unwrap_err()
            .to_string()
            .contains("not a duration"));
        assert!("-1s"
            .parse::<Duration>()
            .unwrap_err()
            .to_string()
            .contains("negative"));
        assert!("2y".parse::<Duration>().is_err());
        assert!("NaNs".parse::<Duration>().is_err());
        for long in ["1e20s", "1e400s", "367d"] {
            let e = long.parse::<Duration>().unwrap_err().to_string();
            assert!(
                e.contains("year") || e.contains("not a duration"),
                "{long}: {e}"
            );
        }
        assert!("1e400s"
            .parse::<Duration>()
            .unwrap_err()
            .to_string()
            .contains("year"));
    }

    #[test]
    fn parsing_is_exact_in_integers() {
        // 3 h and 3.6 ps, rounded to 4 ps; a float would lose the picoseconds.
        assert_eq!(
            d("3.000000000000001h").as_picos(),
            10_800_000_000_000_000 + 4
        );
        assert_eq!(d("0.0004ps").as_picos(), 0);
        assert_eq!(d("1e3ms"), Duration::from_secs(1));
        assert_eq!(d("0.1s").as_picos(), 100_000_000_000);
    }

    #[test]
    fn displays_exactly_in_the_largest_unit() {
        assert_eq!(Duration::from_millis(1500).to_string(), "1.5s");
        assert_eq!(Duration::from_micros(250).to_string(), "250µs");
        assert_eq!(Duration::from_picos(1_234_567).to_string(), "1.234567µs");
        assert_eq!(Duration::from_picos(7).to_string(), "7ps");
        assert_eq!(Duration::ZERO.to_string(), "0ps");
        for s in ["1.5s", "250µs", "1.234567µs", "7ps", "3.000001s"] {
            assert_eq!(d(s).to_string(), s);
        }
    }

    #[test]
    fn json_is_nanoseconds() {
        let j = serde_json::to_string(&Duration::from_millis(3)).unwrap();
        assert_eq!(j, "3000000");
        let j = serde_json::to_string(&Duration::from_picos(1500)).unwrap();
        assert_eq!(j, "1.5");
        assert_eq!(
            serde_json::from_str::<Duration>("1.5").unwrap().as_picos(),
            1500
        );
        assert!(serde_json::from_str::<Duration>("-1").is_err());
    }

    #[test]
    fn converts_to_and_from_std() {
        let s = std::time::Duration::from_micros(1500);
        assert_eq!(Duration::from(s).to_std(), s);
        assert_eq!(Duration::from_secs_f64(0.5), Duration::from_millis(500));
        assert_eq!(Duration::from_millis(500).as_secs_f64(), 0.5);
    }
}
