//! The JSON export: the result document itself, every raw sample included.
use crate::exporter::Exporter;
use plumb_model::ResultDocument;

/// The document itself, every raw sample included (`docs/result-format.md`).
pub struct JsonExporter;

impl Exporter for JsonExporter {
    fn export(&self, doc: &ResultDocument) -> String {
        doc.to_json()
    }
}
