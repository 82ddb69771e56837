//! `plumb report`: one self-contained HTML page per set of results, its charts written
//! here as SVG (see `scale.rs` for why no plotting crate).

/// The page's stylesheet, also carried by each chart written alone.
const STYLE: &str = include_str!("style.css");

mod benchmark_section;
mod cdf;
mod diagnostics;
mod distribution;
mod flame;
mod forest;
mod frame;
mod history_page;
mod page;
mod run_order;
mod runs;
mod sample_points;
mod scale;
mod spectrum;
mod standalone;
mod svg;
mod sweep;
mod timeline;
mod trend;

pub use history_page::history_page;
pub use page::{page as render_html, page_with as render_html_with};
pub use standalone::standalone_charts;
pub use trend::{TrendChange, TrendPoint, TrendSeries};

/// The page of one document, for `--report FILE` beside a run's other exports.
pub struct HtmlExporter;

impl crate::Exporter for HtmlExporter {
    fn export(&self, doc: &plumb_model::ResultDocument) -> String {
        page::page(&[("", doc)])
    }
}
