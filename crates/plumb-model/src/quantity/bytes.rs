//! A number of bytes (`ByteSize`): parsed with binary or decimal units, displayed in binary ones.
use super::{decimal::parse_shifted, QuantityError};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A number of bytes. Text: a number and a unit, `B`, `KiB MiB GiB TiB` (powers of 1024)
/// or `kB KB MB GB TB` (powers of 1000): `32KiB`, `1.5MiB`, `4096B`. A bare number is
/// refused. Display uses binary units, exactly when it can. JSON: the number of bytes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct ByteSize(pub u64);

const UNITS: [(&str, u64); 10] = [
    ("KiB", 1 << 10),
    ("MiB", 1 << 20),
    ("GiB", 1 << 30),
    ("TiB", 1 << 40),
    ("kB", 1_000),
    ("KB", 1_000),
    ("MB", 1_000_000),
    ("GB", 1_000_000_000),
    ("TB", 1_000_000_000_000),
    ("B", 1),
];

impl FromStr for ByteSize {
    type Err = QuantityError;

    fn from_str(s: &str) -> Result<Self, QuantityError> {
        const EXAMPLE: &str = "32KiB, 1MiB, 4096B";
        let t = s.trim();
        let Some((num, per)) = UNITS
            .iter()
            .find_map(|&(u, per)| t.strip_suffix(u).map(|n| (n.trim(), per)))
        else {
            return Err(match parse_shifted(t, 0) {
                Some(_) => QuantityError::new(s, "needs a unit", format!("{t}B, {t}KiB")),
                None => QuantityError::new(s, "is not a size", EXAMPLE),
            });
        };
        let v =
            parse_shifted(num, 0).ok_or_else(|| QuantityError::new(s, "is not a size", EXAMPLE))?;
        let bytes = v * per as f64;
        if !(0.0..=u64::MAX as f64).contains(&bytes) {
            return Err(QuantityError::new(s, "is out of range", EXAMPLE));
        }
        if bytes.fract() != 0.0 {
            return Err(QuantityError::new(
                s,
                "is not a whole number of bytes",
                EXAMPLE,
            ));
        }
        Ok(ByteSize(bytes as u64))
    }
}

impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (u, per) in [
            ("TiB", 1u64 << 40),
            ("GiB", 1 << 30),
            ("MiB", 1 << 20),
            ("KiB", 1 << 10),
        ] {
            if self.0 >= per && self.0.is_multiple_of(per / 1024) {
                let v = self.0 as f64 / per as f64;
                return write!(f, "{v}{u}");
            }
        }
        write!(f, "{}B", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_binary_and_decimal_units() {
        assert_eq!("32KiB".parse::<ByteSize>().unwrap().0, 32768);
        assert_eq!("1.5MiB".parse::<ByteSize>().unwrap().0, 1_572_864);
        assert_eq!("4096B".parse::<ByteSize>().unwrap().0, 4096);
        assert_eq!("2MB".parse::<ByteSize>().unwrap().0, 2_000_000);
        assert_eq!(
            "4096".parse::<ByteSize>().unwrap_err().to_string(),
            "`4096` needs a unit (e.g. 4096B, 4096KiB)"
        );
        assert!("0.5B".parse::<ByteSize>().is_err());
        assert!("-1KiB".parse::<ByteSize>().is_err());
    }

    #[test]
    fn displays_binary_units() {
        assert_eq!(ByteSize(32768).to_string(), "32KiB");
        assert_eq!(ByteSize(1_572_864).to_string(), "1.5MiB");
        assert_eq!(ByteSize(1000).to_string(), "1000B");
        for s in ["32KiB", "1.5MiB", "1000B", "128MiB"] {
            assert_eq!(s.parse::<ByteSize>().unwrap().to_string(), s);
        }
    }
}
