//! Typed quantities with one grammar for every option of every subcommand and of the
//! in-process harness: a duration always needs a unit, a level or an effect may be written
//! as a percentage or a fraction, a size needs a unit, a rate is per second.
//!
//! Each type parses with `FromStr`; its error says what was wrong and shows a valid value,
//! so a caller only adds the option's name (clap does that itself).

mod bytes;
pub(crate) mod decimal;
mod duration;
mod error;
mod frequency;
mod level;
mod rate;
mod timestamp;

pub use bytes::ByteSize;
pub use duration::Duration;
pub use error::QuantityError;
pub use frequency::Frequency;
pub use level::{parse_share, Confidence, Fraction};
pub use rate::Rate;
pub use timestamp::{parse_moment, Timestamp};

/// A whole number of at least `min`, for counts (runs, samples, launches).
pub fn parse_count(s: &str, min: u64) -> Result<u64, QuantityError> {
    let t = s.trim();
    match t.parse::<i128>() {
        Ok(n) if n >= i128::from(min) && n <= i128::from(u64::MAX) => Ok(n as u64),
        Ok(n) if n > i128::from(u64::MAX) => Err(QuantityError::new(
            s,
            "is too large",
            format!("{}", min.max(1) * 10),
        )),
        Ok(_) => Err(QuantityError::new(
            s,
            format!("must be at least {min}"),
            format!("{}", min.max(1) * 10),
        )),
        Err(_) => Err(QuantityError::new(
            s,
            "is not a whole number",
            format!("{}", min.max(1) * 10),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(parse_count("5", 1).unwrap(), 5);
        assert_eq!(parse_count(" 0 ", 0).unwrap(), 0);
        assert!(parse_count("0", 1)
            .unwrap_err()
            .to_string()
            .contains("at least 1"));
        assert!(parse_count("-3", 0).is_err());
        // Below a minimum above one is "at least", not "too large".
        assert!(parse_count("1", 2)
            .unwrap_err()
            .to_string()
            .contains("at least 2"));
        assert!(parse_count("99999999999999999999", 0)
            .unwrap_err()
            .to_string()
            .contains("too large"));
        assert!(parse_count("2.5", 0)
            .unwrap_err()
            .to_string()
            .contains("whole number"));
    }
}
