//! Why a document could not be read: not JSON, another tool's, an unsupported version, malformed.
use std::fmt;

/// Why a document could not be read.
#[derive(Debug)]
pub enum ModelError {
    /// Not JSON at all; carries serde's line and column.
    NotJson(serde_json::Error),
    /// JSON, but not a plumb result (no `"format": "plumb-result"`). Perhaps a hyperfine or
    /// criterion export: those need an importer, not `compare`.
    Foreign {
        expected: String,
        found: Option<String>,
    },
    /// A plumb result of another format version.
    WrongVersion {
        found: u64,
        oldest: u32,
        newest: u32,
    },
    /// An older version that could not be migrated: what was wrong with it.
    Migration(String),
    /// The right format and version, but a field is missing or has the wrong type.
    Malformed(serde_json::Error),
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::NotJson(e) => write!(f, "not valid JSON: {e}"),
            ModelError::Foreign {
                expected,
                found: Some(fmt_name),
            } => write!(
                f,
                "not a {}: its \"format\" is {fmt_name:?}, expected \"{expected}\"",
                what(expected)
            ),
            ModelError::Foreign {
                expected,
                found: None,
            } => write!(
                f,
                "not a {}: it has no \"format\": \"{expected}\" field (is it another tool's export?)",
                what(expected)
            ),
            ModelError::WrongVersion { found, oldest, newest } => {
                let reads = if oldest == newest {
                    format!("version {newest}")
                } else {
                    format!("versions {oldest} to {newest}")
                };
                write!(
                    f,
                    "format version {found} is not supported by this plumb (it reads {reads}); \
                     use the plumb release that wrote it, or re-run the benchmark"
                )
            }
            ModelError::Migration(why) => write!(f, "cannot read this version-1 result: {why}"),
            ModelError::Malformed(e) => write!(f, "malformed plumb result: {e}"),
        }
    }
}

impl std::error::Error for ModelError {}

fn what(format: &str) -> &'static str {
    if format == crate::COMPARISON_FORMAT {
        "plumb comparison"
    } else {
        "plumb result"
    }
}
