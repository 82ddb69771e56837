use std::fmt;

/// Why a document could not be read.
#[derive(Debug)]
pub enum ModelError {
    /// Not JSON at all; carries serde's line and column.
    NotJson(serde_json::Error),
    /// JSON, but not a plumb result (no `"format": "plumb-result"`). Perhaps a hyperfine or
    /// criterion export: those need an importer, not `compare`.
    Foreign { found: Option<String> },
    /// A plumb result of another format version.
    WrongVersion { found: u64, supported: u32 },
    /// The right format and version, but a field is missing or has the wrong type.
    Malformed(serde_json::Error),
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::NotJson(e) => write!(f, "not valid JSON: {e}"),
            ModelError::Foreign { found: Some(fmt_name) } => write!(
                f,
                "not a plumb result: its \"format\" is {fmt_name:?}, expected \"{}\"",
                crate::FORMAT
            ),
            ModelError::Foreign { found: None } => write!(
                f,
                "not a plumb result: it has no \"format\": \"{}\" field (is it another tool's export?)",
                crate::FORMAT
            ),
            ModelError::WrongVersion { found, supported } => write!(
                f,
                "plumb result format version {found} is not supported by this plumb (reads version {supported}); \
                 use the plumb release that wrote it, or re-run the benchmark"
            ),
            ModelError::Malformed(e) => write!(f, "malformed plumb result: {e}"),
        }
    }
}

impl std::error::Error for ModelError {}
