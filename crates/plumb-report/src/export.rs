//! The export formats by name, each with its exporter (the `Exporter` trait, in
//! `exporter.rs`): one file per format (`json.rs`, `markdown.rs`, `csv_export.rs`, `html/`);
//! a new format is one more file and one more `Format` variant.

use crate::exporter::Exporter;
use plumb_model::ResultDocument;

/// The export formats, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Markdown,
    Csv,
    /// The self-contained page of `plumb report` (the `html` feature).
    #[cfg(feature = "html")]
    Html,
}

impl Format {
    pub fn exporter(self) -> &'static dyn Exporter {
        match self {
            Format::Json => &crate::json::JsonExporter,
            Format::Markdown => &crate::markdown::MarkdownExporter,
            Format::Csv => &crate::csv_export::CsvExporter,
            #[cfg(feature = "html")]
            Format::Html => &crate::html::HtmlExporter,
        }
    }

    pub fn render(self, doc: &ResultDocument) -> String {
        self.exporter().export(doc)
    }
}
