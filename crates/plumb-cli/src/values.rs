//! Parsers for option values that are counts or pairs; every other value parses through
//! its library's grammar (`plumb_model::quantity`, one grammar for every subcommand and
//! the harness; `parse_moment`, `parse_share`; plumb-history's `parse_change_id`;
//! plumb-import's `ForeignTool::named`).

use plumb_model::quantity::{parse_count, QuantityError};

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
