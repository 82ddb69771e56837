//! A figure in a metric's own unit (a time per operation, bytes per operation, a count),
//! as findings carry it: the value with its unit, so nothing reading it guesses.
use crate::{format, Unit};
use serde::{Deserialize, Serialize};
use std::fmt;

/// `value` in `unit`: nanoseconds (fractional: a per-operation time may be far below a
/// picosecond's worth of `Duration`, or negative after a correction), bytes, or a count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Amount {
    #[serde(with = "crate::nan_as_null")]
    pub value: f64,
    pub unit: Unit,
}

impl Amount {
    pub fn new(value: f64, unit: Unit) -> Amount {
        Amount { value, unit }
    }
}

/// As every table writes a value of its unit (`1.003 µs`, `2.0 KiB`, `1.5k`).
impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format::value(self.unit, self.value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_amount_is_written_with_its_unit_and_read_back() {
        let a = Amount::new(1003.0, Unit::Nanoseconds);
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, r#"{"value":1003.0,"unit":"ns"}"#);
        assert_eq!(serde_json::from_str::<Amount>(&json).unwrap(), a);
        assert_eq!(a.to_string(), "1.003 µs");
    }
}
