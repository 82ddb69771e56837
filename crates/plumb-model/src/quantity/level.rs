//! Proportions: a confidence level (`Confidence`) and a fraction such as the SESOI (`Fraction`).
use super::{decimal::parse_shifted, QuantityError};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A confidence level, between 50 % and 100 % (exclusive). Text: `99.9%`, `99.9` or
/// `0.999` — a number of 1 or more is a percentage, below 1 a fraction. JSON: the fraction.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Confidence(f64);

/// A proportion strictly between 0 and 1: a smallest effect size of interest, a target
/// relative error. Text: `2%` or `0.02`; a bare `2` is refused (two percent, or two
/// hundred?). JSON: the fraction.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Fraction(f64);

impl Confidence {
    /// 99.9 %, as BenchmarkDotNet.
    pub const DEFAULT: Confidence = Confidence(0.999);

    pub const fn new(level: f64) -> Option<Self> {
        if level >= 0.5 && level < 1.0 {
            Some(Confidence(level))
        } else {
            None
        }
    }
    pub fn get(self) -> f64 {
        self.0
    }
    /// The significance level of a test at this confidence, 1 − level.
    pub fn alpha(self) -> f64 {
        1.0 - self.0
    }
}

impl Fraction {
    /// 2 %: the default smallest effect size of interest.
    pub const DEFAULT_SESOI: Fraction = Fraction(0.02);

    pub const fn new(f: f64) -> Option<Self> {
        if f > 0.0 && f < 1.0 {
            Some(Fraction(f))
        } else {
            None
        }
    }
    pub fn get(self) -> f64 {
        self.0
    }
}

/// `0.999` → `99.9` with the point moved in the decimal text (no 99.90000000000001), and
/// never through an f64 of the percentage: the shortest digits that give `f` back, so
/// that reading the text gives `f` again (through an f64, 0.9177777777777778 came back
/// as 0.9177777777777779: cargo fuzz found it).
fn percent_text(f: f64) -> String {
    let sci = format!("{f:e}");
    let (m, e) = sci.split_once('e').expect("{:e} has an exponent");
    let e: i32 = e.parse().expect("{:e} exponent is an integer");
    let (sign, m) = m.strip_prefix('-').map_or(("", m), |m| ("-", m));
    let digits: String = m.chars().filter(char::is_ascii_digit).collect();
    // Digits before the point: one in the mantissa, moved by the exponent and the 100.
    let before = e + 3;
    let text = if before <= 0 {
        format!("0.{}{digits}", "0".repeat(before.unsigned_abs() as usize))
    } else if before as usize >= digits.len() {
        format!("{digits}{}", "0".repeat(before as usize - digits.len()))
    } else {
        let (int, frac) = digits.split_at(before as usize);
        format!("{int}.{frac}")
    };
    format!("{sign}{text}")
}

impl FromStr for Confidence {
    type Err = QuantityError;

    fn from_str(s: &str) -> Result<Self, QuantityError> {
        const EXAMPLE: &str = "99.9%, 99.9, 0.999";
        let t = s.trim();
        let v = match t.strip_suffix('%') {
            Some(n) => parse_shifted(n, 2),
            None => parse_shifted(t, 0).map(|v| {
                if v >= 1.0 {
                    parse_shifted(t, 2).unwrap_or(v / 100.0)
                } else {
                    v
                }
            }),
        }
        .ok_or_else(|| QuantityError::new(s, "is not a confidence level", EXAMPLE))?;
        Confidence::new(v).ok_or_else(|| {
            QuantityError::new(s, "is not a confidence level between 50% and 100%", EXAMPLE)
        })
    }
}

impl FromStr for Fraction {
    type Err = QuantityError;

    fn from_str(s: &str) -> Result<Self, QuantityError> {
        const EXAMPLE: &str = "2%, 0.02";
        let t = s.trim();
        let v = match t.strip_suffix('%') {
            Some(n) => parse_shifted(n, 2),
            None => match parse_shifted(t, 0) {
                Some(v) if v >= 1.0 => {
                    return Err(QuantityError::new(
                        s,
                        "is ambiguous: write a percentage with %",
                        format!("{t}%"),
                    ))
                }
                other => other,
            },
        }
        .ok_or_else(|| QuantityError::new(s, "is not a percentage or a fraction", EXAMPLE))?;
        Fraction::new(v)
            .ok_or_else(|| QuantityError::new(s, "must be above 0% and below 100%", EXAMPLE))
    }
}

/// A share of something from none to all, inclusive: `0`, `0.5%`, `0.01`, `100%`, `1`
/// (`--max-error-rate`). Unlike a `Fraction`, 0 and 1 are allowed.
pub fn parse_share(s: &str) -> Result<f64, QuantityError> {
    let t = s.trim();
    let v = match t.strip_suffix('%') {
        Some(n) => n.trim().parse::<f64>().map(|v| v / 100.0),
        None => t.parse::<f64>(),
    };
    match v {
        Ok(v) if (0.0..=1.0).contains(&v) && (t.ends_with('%') || v < 1.0 || t == "1") => Ok(v),
        _ => Err(QuantityError::new(
            s,
            "is not a share from 0 to 100%",
            "0, 0.5%, 0.01",
        )),
    }
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}%", percent_text(self.0))
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}%", percent_text(self.0))
    }
}

macro_rules! serde_as_f64 {
    ($t:ident, $what:literal) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_f64(self.0)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let v = f64::deserialize(d)?;
                $t::new(v).ok_or_else(|| serde::de::Error::custom(format!("{v} is not {}", $what)))
            }
        }
    };
}
serde_as_f64!(Confidence, "a confidence level in [0.5, 1)");
serde_as_f64!(Fraction, "a fraction in (0, 1)");

#[cfg(test)]
mod tests {
    use super::*;

    /// A level read back from its own text is the same number (cargo fuzz found one that
    /// was not).
    #[test]
    fn a_level_written_is_read_back_to_itself() {
        for v in [
            0.9177777777777778f64,
            0.999,
            0.5,
            0.95,
            0.9999999999999999,
            0.123456789,
        ] {
            let text = Confidence::new(v.max(0.5)).unwrap().to_string();
            assert_eq!(c(&text), Ok(v.max(0.5)), "{text}");
            let text = Fraction::new(v).unwrap().to_string();
            assert_eq!(f(&text), Ok(v), "{text}");
        }
        assert_eq!(Confidence::DEFAULT.to_string(), "99.9%");
        assert_eq!(Fraction::new(0.000015).unwrap().to_string(), "0.0015%");
        assert_eq!(Fraction::new(0.02).unwrap().to_string(), "2%");
    }

    fn c(s: &str) -> Result<f64, QuantityError> {
        s.parse::<Confidence>().map(|c| c.get())
    }
    fn f(s: &str) -> Result<f64, QuantityError> {
        s.parse::<Fraction>().map(|c| c.get())
    }

    #[test]
    fn percent_and_fraction_forms_are_the_same_number() {
        // Bit-identical: 99.9 / 100 would be 0.9990000000000001.
        assert_eq!(c("99.9%").unwrap().to_bits(), 0.999f64.to_bits());
        assert_eq!(c("99.9").unwrap().to_bits(), 0.999f64.to_bits());
        assert_eq!(c("0.999").unwrap().to_bits(), 0.999f64.to_bits());
        assert_eq!(c("95").unwrap(), 0.95);
        assert_eq!(c("50%").unwrap(), 0.5);
    }

    #[test]
    fn levels_outside_half_to_one_are_refused_with_an_example() {
        for bad in ["0.3", "1", "100%", "100", "30%", "x", "", "-99"] {
            let e = c(bad).unwrap_err().to_string();
            assert!(e.contains("99.9%"), "{bad}: {e}");
        }
    }

    #[test]
    fn fractions() {
        assert_eq!(f("2%").unwrap(), 0.02);
        assert_eq!(f("0.02").unwrap(), 0.02);
        assert_eq!(f("0.5%").unwrap(), 0.005);
        assert_eq!(
            f("2").unwrap_err().to_string(),
            "`2` is ambiguous: write a percentage with % (e.g. 2%)"
        );
        assert!(f("0").unwrap_err().to_string().contains("above 0%"));
        assert!(f("100%").is_err());
        assert!(f("abc").unwrap_err().to_string().contains("2%, 0.02"));
    }

    #[test]
    fn display_as_percentages_that_read_back() {
        for s in ["99.9%", "95%", "99.99%", "50%"] {
            assert_eq!(s.parse::<Confidence>().unwrap().to_string(), s);
        }
        assert_eq!(Fraction::new(0.02).unwrap().to_string(), "2%");
        assert_eq!(Fraction::new(0.005).unwrap().to_string(), "0.5%");
        assert_eq!(Fraction::new(0.07).unwrap().to_string(), "7%");
    }

    #[test]
    fn json_is_the_fraction_and_is_checked() {
        assert_eq!(
            serde_json::to_string(&Confidence::DEFAULT).unwrap(),
            "0.999"
        );
        assert!(serde_json::from_str::<Confidence>("1.5").is_err());
        assert_eq!(
            serde_json::from_str::<Fraction>("0.02").unwrap().get(),
            0.02
        );
    }

    #[test]
    fn a_share_is_from_none_to_all_inclusive() {
        for (text, v) in [
            ("0", 0.0),
            ("0.5%", 0.005),
            ("0.01", 0.01),
            ("100%", 1.0),
            ("1", 1.0),
        ] {
            assert_eq!(parse_share(text), Ok(v), "{text}");
        }
        for bad in ["2", "101%", "-1%", "half", "1.5"] {
            assert!(parse_share(bad).is_err(), "{bad}");
        }
    }
}
