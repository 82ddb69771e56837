use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

/// One finding of an enemy check: what was seen, the numbers that show it, and what to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Stable machine-readable identifier, e.g. `high-cv`, `drift`, `bimodal`.
    pub code: String,
    pub severity: Severity,
    pub message: String,
    /// The figures behind the finding, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub evidence: BTreeMap<String, serde_json::Value>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub advice: String,
}

impl Diagnostic {
    pub fn new(code: &str, severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            code: code.to_string(),
            severity,
            message: message.into(),
            evidence: BTreeMap::new(),
            advice: String::new(),
        }
    }

    pub fn evidence(mut self, name: &str, value: impl Into<serde_json::Value>) -> Self {
        self.evidence.insert(name.to_string(), value.into());
        self
    }

    pub fn advice(mut self, advice: impl Into<String>) -> Self {
        self.advice = advice.into();
        self
    }
}
