//! A quantity that could not be read: the value given, what is wrong with it, and a valid example.
use std::fmt;

/// A quantity that could not be read: the value as given, what is wrong with it, and a
/// valid example. Displays as "`5`: a duration needs a unit (e.g. 5ms, 5s)".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuantityError {
    pub value: String,
    pub problem: String,
    pub example: String,
}

impl QuantityError {
    pub fn new(value: &str, problem: impl Into<String>, example: impl Into<String>) -> Self {
        QuantityError {
            value: value.to_string(),
            problem: problem.into(),
            example: example.into(),
        }
    }
}

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` {} (e.g. {})",
            self.value, self.problem, self.example
        )
    }
}

impl std::error::Error for QuantityError {}
