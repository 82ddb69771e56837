//! Outputs: every format renders the one result model. Exporters return the bytes; the
//! caller decides where they go (and writes them even when a run stopped early).

mod compare_view;
mod counter_rows;
mod counting_plan;
mod csv_export;
mod design_view;
mod env_view;
mod export;
mod exporter;
pub mod finding;
#[cfg(test)]
mod fixture;
#[cfg(feature = "html")]
pub mod flamegraph;
#[cfg(feature = "history")]
pub mod history;
#[cfg(feature = "html")]
mod html;
mod insitu_view;
mod json;
mod load_test_view;
mod load_view;
mod markdown;
mod profile_view;
mod reason;
mod revisions_view;
mod rows;
mod saved_view;
#[cfg(feature = "histograms")]
mod simulate_view;
mod speed;
mod sweep_rows;
pub mod targets;
mod terminal;

pub use compare_view::{render_document_comparison, render_load_comparison};
pub use counting_plan::{commands_counting, counting_plan, Counted, CountersRefused};
pub use csv_export::render_csv;
pub use design_view::{design_traits, render_design_check};
pub use env_view::{
    counting_notices, hardware_counters, render_environment, render_environment_record,
    simulation_summary,
};
pub use export::Format;
pub use exporter::Exporter;
#[cfg(feature = "html")]
pub use html::{
    history_page, render_html, render_html_with, standalone_charts, TrendChange, TrendPoint,
    TrendSeries,
};
pub use insitu_view::{render_region_comparison, render_regions};
pub use load_test_view::render_load_test;
pub use load_view::{render_connection, render_load, render_mix_targets};
pub use markdown::render_markdown;
pub use profile_view::{
    profile_markdown, profile_markdown_with_details, render_allocations, render_amdahl,
    render_annotation, render_profile, render_profile_with_details, render_share_changes,
};
pub use reason::{percentile_reason_text, reason_text};
pub use saved_view::render_saved;
#[cfg(feature = "histograms")]
pub use simulate_view::render_simulation;
pub use terminal::{
    nothing_measured, render_diagnostics, render_terminal, render_terminal_at, Detail,
};

/// Colour on or off for everything plumb-report renders, overriding the detection (a
/// terminal, and NO_COLOR unset).
pub fn set_colors(on: bool) {
    console::set_colors_enabled(on);
    console::set_colors_enabled_stderr(on);
}
