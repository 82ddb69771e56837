//! A finding as documents before format 4 recorded it: a code with its words (message,
//! advice) and untyped evidence, kept as they were so an old result still reads.
use crate::DiagnosticCode;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedFinding {
    pub code: DiagnosticCode,
    pub message: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub evidence: BTreeMap<String, serde_json::Value>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub advice: String,
}
