//! Reading older format versions: the JSON of an old document is rewritten, one version
//! at a time, into the current version's shape before it is parsed, so the types know
//! one version only. Version 4 typed the findings; a diagnostic of an older version keeps
//! its recorded words (`finding::RecordedFinding`), so that step rewrites nothing.

mod v1_to_v2;
mod v2_to_v3;

use crate::ModelError;
use serde_json::{Map, Value};

/// `doc`, written in format `version`, in the current version's shape.
pub fn to_current(mut doc: Value, version: u32) -> Result<Value, ModelError> {
    if version < 2 {
        doc = v1_to_v2::v1_to_v2(doc)?;
    }
    if version < 3 {
        doc = v2_to_v3::v2_to_v3(doc)?;
    }
    if version < 4 {
        obj(&mut doc, "the document")?.insert("format_version".into(), Value::from(4));
    }
    Ok(doc)
}

/// A comparison document of version 2 or 3 in the current version's shape.
pub fn comparison_to_current(doc: Value, version: u32) -> Result<Value, ModelError> {
    let mut doc = match version {
        2 => v2_to_v3::comparison_v2_to_v3(doc)?,
        _ => doc,
    };
    if version < 4 {
        obj(&mut doc, "the comparison")?.insert("format_version".into(), Value::from(4));
    }
    Ok(doc)
}

fn obj<'a>(v: &'a mut Value, what: &str) -> Result<&'a mut Map<String, Value>, ModelError> {
    v.as_object_mut()
        .ok_or_else(|| ModelError::Migration(format!("{what} is not an object")))
}

fn rename(o: &mut Map<String, Value>, from: &str, to: &str) {
    if let Some(v) = o.remove(from) {
        o.insert(to.into(), v);
    }
}
