//! Parsers for option values that are not quantities (those parse through
//! `plumb_model::quantity`, one grammar for every subcommand and the harness).

use plumb_model::quantity::{parse_count, QuantityError};

/// A wall-clock time in Unix seconds (fractions allowed).
pub fn unix_time(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds since 1970"))?;
    if v.is_finite() && v > 0.0 && v < 1e11 {
        Ok(v)
    } else {
        Err(format!(
            "{s:?} is not a Unix time (seconds since 1970, e.g. $(date +%s))"
        ))
    }
}

/// A count of zero or more.
pub fn count(s: &str) -> Result<u64, QuantityError> {
    parse_count(s, 0)
}

/// A count of at least 1.
pub fn positive(s: &str) -> Result<u64, QuantityError> {
    parse_count(s, 1)
}
