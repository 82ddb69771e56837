//! Outputs to files, behind one small trait: an exporter turns a document into the text
//! of its format (`export.rs` names the formats).
use plumb_model::ResultDocument;

/// A file format's writer for a result document.
pub trait Exporter {
    /// The document in this format.
    fn export(&self, doc: &ResultDocument) -> String;
}
