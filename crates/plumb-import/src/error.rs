//! What can go wrong reading another tool's results: one line naming the place.

use std::fmt;

/// A foreign file plumb recognised but cannot read: where (a file, a line, a field) and
/// what was wrong there.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportError {
    pub place: String,
    pub why: String,
}

impl ImportError {
    pub fn at(place: impl Into<String>, why: impl Into<String>) -> ImportError {
        ImportError {
            place: place.into(),
            why: why.into(),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.place.is_empty() {
            f.write_str(&self.why)
        } else {
            write!(f, "{}: {}", self.place, self.why)
        }
    }
}

impl std::error::Error for ImportError {}

impl From<String> for ImportError {
    fn from(why: String) -> ImportError {
        ImportError::at("", why)
    }
}

impl From<&str> for ImportError {
    fn from(why: &str) -> ImportError {
        ImportError::at("", why)
    }
}
