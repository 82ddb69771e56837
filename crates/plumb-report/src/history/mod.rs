//! The history store's views, each reading one series' record as the store keeps it
//! (its points and its changes with what the last analysis found of each), so the
//! terminal, Markdown, the export and the trend page cannot disagree: `list` (a line a
//! series), `series` (one series' trend and points), `export` (CSV, JSON), `changes`
//! (the change points as a table or Markdown), `trend` (the page's series).

mod changes;
mod export;
mod list;
mod series;
#[cfg(feature = "html")]
mod trend;

pub use changes::{render_changes, render_changes_markdown};
pub use export::{history_csv, history_json};
pub use list::render_history_list;
pub use series::render_series;
#[cfg(feature = "html")]
pub use trend::trend_series;

use plumb_history::SeriesRecord;

/// The commit (short) or run of point `i`.
fn at(r: &SeriesRecord, i: usize) -> String {
    r.points[i].label()
}

/// `c24..c25`: the last commit of the old level and the first of the new.
fn commits_of(r: &SeriesRecord, index: usize) -> String {
    format!("{}..{}", at(r, index - 1), at(r, index))
}

/// The date of point `i` (its commit's, else when it was recorded), `YYYY-MM-DD`.
fn date(r: &SeriesRecord, i: usize) -> String {
    let p = &r.points[i];
    let date = p.commit.as_ref().map_or(p.recorded, |c| c.time).to_string();
    date[..10.min(date.len())].to_string()
}
