//! Why a workload file (or a design built in code) was refused: the key, what was wrong
//! with its value, and an example of a valid one.
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum DesignError {
    /// The file is not TOML, or names a key no design has (the parser's words, which
    /// list the valid keys).
    Syntax(String),
    /// A key's value is impossible or in the wrong form.
    Value {
        key: String,
        problem: String,
        example: String,
    },
}

impl DesignError {
    #[cfg(feature = "read")]
    pub(crate) fn value(
        key: impl Into<String>,
        problem: impl Into<String>,
        example: impl Into<String>,
    ) -> Self {
        DesignError::Value {
            key: key.into(),
            problem: problem.into(),
            example: example.into(),
        }
    }
}

impl fmt::Display for DesignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DesignError::Syntax(why) => f.write_str(why.trim()),
            DesignError::Value {
                key,
                problem,
                example,
            } => write!(f, "`{key}` {problem} (for example: {example})"),
        }
    }
}

impl std::error::Error for DesignError {}
