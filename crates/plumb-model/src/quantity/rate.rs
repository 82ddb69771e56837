//! Events per second (`Rate`): `450`, `450/s`, `2k/s`, `1.5M`, above 0 and at most 10⁹.
use super::{decimal::parse_shifted, QuantityError};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Events per second, above 0 and at most 10⁹. Text: `450`, `450/s`, `2k/s`, `1.5M`.
/// A bare number is per second: every rate in plumb is. JSON: the number per second.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize)]
#[serde(transparent)]
pub struct Rate(f64);

impl<'de> Deserialize<'de> for Rate {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = f64::deserialize(d)?;
        Rate::new(v).ok_or_else(|| {
            serde::de::Error::custom(format!("{v} is not a rate above 0 and at most 1e9/s"))
        })
    }
}

impl Rate {
    pub fn new(per_second: f64) -> Option<Self> {
        (per_second.is_finite() && per_second > 0.0 && per_second <= 1e9)
            .then_some(Rate(per_second))
    }
    pub fn per_second(self) -> f64 {
        self.0
    }
}

impl FromStr for Rate {
    type Err = QuantityError;

    fn from_str(s: &str) -> Result<Self, QuantityError> {
        const EXAMPLE: &str = "450, 450/s, 2k/s";
        let t = s.trim();
        let t = t.strip_suffix("/s").unwrap_or(t).trim();
        let (num, mult) = match t.strip_suffix(['k', 'K']) {
            Some(n) => (n, 1e3),
            None => match t.strip_suffix('M') {
                Some(n) => (n, 1e6),
                None => (t, 1.0),
            },
        };
        let v =
            parse_shifted(num, 0).ok_or_else(|| QuantityError::new(s, "is not a rate", EXAMPLE))?;
        Rate::new(v * mult).ok_or_else(|| {
            QuantityError::new(s, "must be above 0 and at most 1e9 per second", EXAMPLE)
        })
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/s", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rates() {
        assert_eq!("450".parse::<Rate>().unwrap().per_second(), 450.0);
        assert_eq!("450/s".parse::<Rate>().unwrap().per_second(), 450.0);
        assert_eq!("2k/s".parse::<Rate>().unwrap().per_second(), 2000.0);
        assert_eq!("1.5M".parse::<Rate>().unwrap().per_second(), 1.5e6);
        for bad in ["0", "-5", "x", "2e9", "inf"] {
            assert!(bad.parse::<Rate>().is_err(), "{bad}");
        }
        assert_eq!(Rate::new(450.0).unwrap().to_string(), "450/s");
        assert!(serde_json::from_str::<Rate>("0").is_err());
        assert_eq!(
            serde_json::from_str::<Rate>("450").unwrap().per_second(),
            450.0
        );
    }
}
