//! Parsers for option values that are not quantities (those parse through
//! `plumb_model::quantity`, one grammar for every subcommand and the harness).

use plumb_import::ForeignTool;
use plumb_model::quantity::{parse_count, QuantityError, Timestamp};
use std::fmt;

/// A value that is none of what its option takes, each said with an example.
#[derive(Debug, Clone, PartialEq)]
pub enum BadValue {
    /// Not a number of seconds since 1970, nor RFC 3339.
    UnixTime(String),
    /// A number, but not a Unix time.
    NotUnixTime(String),
    /// Not a fraction of requests from 0 to 1.
    ErrorRate(String),
    /// A `--format` plumb does not import.
    Format(String),
    /// A change not written SERIES@RUN.
    Change(String),
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadValue::UnixTime(s) => write!(f, "{s:?} is not a number of seconds since 1970"),
            BadValue::NotUnixTime(s) => write!(
                f,
                "{s:?} is not a Unix time (seconds since 1970, e.g. $(date +%s))"
            ),
            BadValue::ErrorRate(s) => write!(
                f,
                "{s:?} is not a fraction of requests from 0 to 100% (e.g. 0, 0.5%, 0.01)"
            ),
            BadValue::Format(name) => {
                let names: Vec<&str> = ForeignTool::ALL.iter().map(|t| t.key()).collect();
                write!(
                    f,
                    "unknown format {name:?}; plumb imports {}",
                    names.join(", ")
                )
            }
            BadValue::Change(text) => write!(
                f,
                "{text}: a change is SERIES@RUN, as plumb history changes names it (e.g. 3@41)"
            ),
        }
    }
}

impl std::error::Error for BadValue {}

/// A wall-clock time in Unix seconds (fractions allowed).
/// A moment as Unix seconds (`$(date +%s)`, fractions allowed) or RFC 3339 in UTC
/// (`2026-11-25T09:48:41Z`).
pub fn unix_time(s: &str) -> Result<Timestamp, Box<dyn std::error::Error + Send + Sync>> {
    if s.contains('T') {
        return Ok(s.parse::<Timestamp>()?);
    }
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| BadValue::UnixTime(s.to_string()))?;
    if v.is_finite() && v > 0.0 && v < 1e11 {
        Ok(Timestamp::from_unix_secs_f64(v))
    } else {
        Err(BadValue::NotUnixTime(s.to_string()).into())
    }
}

/// A fraction of requests from 0 to 1: `0`, `1%`, `0.5%`, `0.01`.
pub fn error_rate(s: &str) -> Result<f64, BadValue> {
    let t = s.trim();
    let v = match t.strip_suffix('%') {
        Some(n) => n.trim().parse::<f64>().map(|v| v / 100.0),
        None => t.parse::<f64>(),
    };
    match v {
        Ok(v) if (0.0..=1.0).contains(&v) && (t.ends_with('%') || v < 1.0 || t == "1") => Ok(v),
        _ => Err(BadValue::ErrorRate(s.to_string())),
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

/// A count of at least two (rounds: a spread needs two).
pub fn at_least_two(s: &str) -> Result<u64, QuantityError> {
    parse_count(s, 2)
}

/// `OLD=NEW`: two benchmark names to compare with each other.
pub fn pair(s: &str) -> Result<(String, String), plumb_analysis::Refused> {
    plumb_analysis::parse_pair(s)
}

/// `--format NAME`: the tool whose results a file is, when its content does not say.
pub fn import_format(name: &str) -> Result<ForeignTool, BadValue> {
    ForeignTool::by_key(name).ok_or_else(|| BadValue::Format(name.to_string()))
}

/// A change as `plumb history changes` names it: SERIES@RUN.
pub fn parse_change(text: &str) -> Result<(i64, i64), BadValue> {
    text.split_once('@')
        .and_then(|(s, r)| Some((s.parse().ok()?, r.parse().ok()?)))
        .ok_or_else(|| BadValue::Change(text.to_string()))
}
