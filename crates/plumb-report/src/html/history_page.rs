//! The history page (`plumb report --history`): each series' trend — every result at its
//! commit with its interval, each change point named where it starts — and its changes
//! in a table, on one self-contained page like every report.

use super::svg::escape;
use super::trend::{trend_chart, TrendSeries};
use super::STYLE;
use plumb_model::format;
use std::fmt::Write;

/// The page of `series`, read from the store `source` (a path, or a URL without its
/// password); `method` says how the change points were found.
pub fn history_page(series: &[TrendSeries], source: &str, method: &str) -> String {
    let title = format!("plumb history: {source}");
    let changes: usize = series.iter().map(|s| s.changes.len()).sum();
    let mut out = String::new();
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>{}</title><style>{STYLE}</style></head><body>\n",
        escape(&title)
    );
    let _ = writeln!(
        out,
        "<header><h1>{}</h1><p class=\"meta\">{} series, {} change point(s); {}</p></header>",
        escape(&title),
        series.len(),
        changes,
        escape(method)
    );
    for s in series {
        out.push_str(&section(s));
    }
    out.push_str("</body></html>\n");
    out
}

fn section(s: &TrendSeries) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<section><h2>{}</h2><p class=\"meta\">{} · {} results, {} … {}</p>",
        escape(&s.name),
        escape(&s.machine),
        s.points.len(),
        escape(s.points.first().map_or("", |p| p.at.as_str())),
        escape(s.points.last().map_or("", |p| p.at.as_str()))
    );
    if let Some(svg) = trend_chart(s) {
        let _ = writeln!(
            out,
            "<figure>{svg}<figcaption>Each result's mean with its interval, in commit order; a dashed line where a change point's new level starts.</figcaption></figure>"
        );
    }
    if !s.changes.is_empty() {
        out.push_str(
            "<table><thead><tr><th>commits</th><th>change</th><th>status</th></tr></thead><tbody>",
        );
        for c in &s.changes {
            let class = if c.relative > 0.0 { "slower" } else { "faster" };
            let _ = write!(
                out,
                "<tr><td><code>{}</code></td><td class=\"n {class}\">{}</td><td>{}</td></tr>",
                escape(&c.commits),
                escape(&format::signed_percent(c.relative)),
                escape(&c.status)
            );
        }
        out.push_str("</tbody></table>");
    }
    out.push_str("</section>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::trend::{TrendChange, TrendPoint};
    use plumb_model::Unit;

    #[test]
    fn each_series_has_its_chart_and_its_changes() {
        let s = TrendSeries {
            name: "a <b> · wall-time".into(),
            machine: "CPU".into(),
            unit: Unit::Nanoseconds,
            points: (0..5)
                .map(|i| TrendPoint {
                    at: format!("c{i}"),
                    date: "2026-11-27".into(),
                    mean: 1000.0 + i as f64,
                    interval: None,
                })
                .collect(),
            changes: vec![TrendChange {
                index: 3,
                commits: "c2..c3".into(),
                relative: -0.2,
                status: "acknowledged".into(),
            }],
        };
        let page = history_page(&[s], "h.db", "plumb's method");
        assert!(page.contains("<h2>a &lt;b&gt; · wall-time</h2>"));
        assert!(page.contains("<svg"));
        assert!(page.contains("<td class=\"n faster\">-20.0%</td><td>acknowledged</td>"));
        assert!(
            page.contains("1 series, 1 change point(s); plumb&#39;s method")
                || page.contains("1 series, 1 change point(s); plumb's method"),
            "{page}"
        );
    }
}
