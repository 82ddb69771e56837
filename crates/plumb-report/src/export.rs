//! Outputs to files, behind one small trait: an exporter turns a document into the text
//! of its format. One file per format (`json.rs`, `markdown.rs`, `csv_export.rs`, `html/`); a new
//! format is one more file and one more `Format` variant.

use plumb_model::ResultDocument;

/// A file format for a result document.
pub trait Exporter {
    /// The document in this format.
    fn export(&self, doc: &ResultDocument) -> String;
}

/// The export formats, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Markdown,
    Csv,
    /// The self-contained page of `plumb report`.
    Html,
}

impl Format {
    pub fn exporter(self) -> &'static dyn Exporter {
        match self {
            Format::Json => &crate::json::JsonExporter,
            Format::Markdown => &crate::markdown::MarkdownExporter,
            Format::Csv => &crate::csv_export::CsvExporter,
            Format::Html => &crate::html::HtmlExporter,
        }
    }

    pub fn render(self, doc: &ResultDocument) -> String {
        self.exporter().export(doc)
    }
}
