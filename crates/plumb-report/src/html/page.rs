//! The report page: one self-contained HTML file (no fetches: styles inline, charts as
//! inline SVG, hover values as SVG titles, so it reads without script), readable in
//! light and dark schemes and in print.

use super::benchmark_section::benchmark_section;
use super::diagnostics::diagnostics;
use super::flame::flame_chart;
use super::forest::forest_chart;
use super::svg::escape;
use super::sweep::{sweep_chart, sweep_misses_chart};
use crate::rows::{summary_table, Table};
use plumb_model::sweep::sweeps;
use plumb_model::{ComparisonDocument, ResultDocument, RunStatus};
use std::fmt::Write;

use super::STYLE;

/// The page of `docs`, each read from the path beside it.
pub fn page(docs: &[(&str, &ResultDocument)]) -> String {
    page_with(docs, &[])
}

/// The page of `docs` and of `comparisons` between results, the comparisons first.
pub fn page_with(docs: &[(&str, &ResultDocument)], comparisons: &[ComparisonDocument]) -> String {
    let title = match (docs, comparisons) {
        ([], [c]) => format!("plumb report: {} → {}", c.base.path, c.new.path),
        ([("", doc)], _) => format!("plumb report: {}", command_line(doc)),
        ([(path, _)], _) => format!("plumb report: {path}"),
        _ => format!("plumb report: {} results", docs.len()),
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>{}</title><style>{STYLE}</style></head><body>\n",
        escape(&title)
    );
    for c in comparisons {
        out.push_str(&comparison_section(c));
    }
    for (path, doc) in docs {
        out.push_str(&document(path, doc));
    }
    out.push_str("</body></html>\n");
    out
}

/// The command line as a shell would take it back: `plumb run 'sleep 0.01' …`, not
/// `plumb run sleep 0.01 …`, which reads as other commands.
fn command_line(doc: &ResultDocument) -> String {
    shell_words::join(&doc.invocation.argv)
}

fn document(path: &str, doc: &ResultDocument) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<header><h1>{}</h1><p class=\"meta\">{}{} · plumb {}</p>{}</header>",
        escape(&command_line(doc)),
        if path.is_empty() {
            String::new()
        } else {
            format!("{} · ", escape(path))
        },
        escape(&plumb_model::format::date(doc.started)),
        escape(&doc.tool.version),
        environment(doc)
    );
    match &doc.status {
        RunStatus::Complete => {}
        RunStatus::Interrupted { signal } => {
            let _ = writeln!(
                out,
                "<p class=\"banner\">Interrupted by {}: what follows is what was measured before it.</p>",
                escape(signal.as_deref().unwrap_or("a signal"))
            );
        }
        RunStatus::Failed { message } => {
            let _ = writeln!(
                out,
                "<p class=\"banner\">Failed: {}. What follows is what was measured before it.</p>",
                escape(message)
            );
        }
    }
    out.push_str(&machine_section(doc));
    out.push_str(&results_table(doc));
    out.push_str(&sweep_sections(doc));
    if !doc.comparisons.is_empty() {
        out.push_str("<h2>Verdicts</h2>");
        out.push_str(&verdicts(&doc.comparisons, doc.settings.sesoi.get()));
    }
    for b in &doc.benchmarks {
        out.push_str(&benchmark_section(b));
    }
    for p in &doc.profiles {
        out.push_str(&profile_section(doc, p));
    }
    out
}

/// The forest of ratios and each verdict in words; `sesoi` as a fraction.
fn verdicts(comparisons: &[plumb_model::Comparison], sesoi: f64) -> String {
    let mut out = format!(
        "<figure>{}<figcaption>Each ratio with its interval; the shaded band is the smallest effect of interest (±{:.1} %): an interval beyond it is faster or slower, inside it equivalent, across its edge inconclusive.</figcaption></figure><ul>",
        forest_chart(comparisons, sesoi),
        100.0 * sesoi
    );
    for c in comparisons {
        let said = escape(&crate::speed::verdict_said(c));
        let _ = write!(
            out,
            "<li><b>{}</b> against {}: <span class=\"{v}\">{said}</span> (ratio ×{:.3}). {}</li>",
            escape(&c.candidate),
            escape(&c.baseline),
            c.ratio,
            escape(&crate::reason_text(c)),
            v = c.verdict
        );
    }
    out.push_str("</ul>");
    out
}

/// Two results compared (saved by `plumb compare --export-json`, or made by `plumb
/// report` of two results with benchmarks in common): the forest and verdicts, the load
/// percentiles, what only one side has, and how their machines differed.
pub fn comparison_section(c: &ComparisonDocument) -> String {
    let mut out = format!(
        "<section><h2>{} → {}</h2><p class=\"meta\">SESOI ±{}, {} confidence</p>",
        escape(&c.base.path),
        escape(&c.new.path),
        c.sesoi,
        c.confidence
    );
    if !c.comparisons.is_empty() {
        out.push_str(&verdicts(&c.comparisons, c.sesoi.get()));
    }
    for l in &c.load {
        let text = crate::render_load_comparison(l);
        let _ = write!(
            out,
            "<pre>{}</pre>",
            escape(&console::strip_ansi_codes(&text))
        );
    }
    for (side, names) in [("base", &c.only_in_base), ("new", &c.only_in_new)] {
        if !names.is_empty() {
            let _ = write!(
                out,
                "<p class=\"muted\">Only in the {side}: {}</p>",
                escape(&names.join(", "))
            );
        }
    }
    if !c.notes.is_empty() {
        out.push_str(&diagnostics(&c.notes));
    }
    out.push_str("</section>");
    out
}

/// A profile: its flame graph and its table.
fn profile_section(doc: &ResultDocument, p: &plumb_model::Profile) -> String {
    let settings = doc.settings.producer.profile();
    let mut out = format!("<section><h2>Profile of {}</h2>", escape(&p.name));
    match flame_chart(&p.name, &p.stacks) {
        Some(svg) => {
            let _ = write!(
                out,
                "<figure>{svg}<figcaption>Each box a function, as wide as its share of the samples, callers below their callees; hover for the counts.</figcaption></figure>"
            );
        }
        None => out.push_str("<p class=\"muted\">No samples: no flame graph.</p>"),
    }
    // With its annotations (--annotate) and allocation sites, as the terminal has them.
    let text = crate::render_profile_with_details(p, settings, 20);
    let text = console::strip_ansi_codes(&text).into_owned();
    let _ = write!(out, "<pre>{}</pre></section>", escape(&text));
    out
}

/// Each sweep's charts: time per operation, and misses per operation where counted.
fn sweep_sections(doc: &ResultDocument) -> String {
    let mut out = String::new();
    for s in sweeps(&doc.benchmarks) {
        if let Some(chart) = sweep_chart(doc, &s) {
            let _ = write!(
                out,
                "<h2>Sweep {}</h2><figure>{chart}<figcaption>The mean time per operation at each working set (with its interval), this machine's caches where they fall, and each step the analysis judged a cliff circled.</figcaption></figure>",
                escape(&s.series)
            );
        }
        if let Some(chart) = sweep_misses_chart(doc, &s) {
            let _ = write!(
                out,
                "<figure>{chart}<figcaption>Cache misses per operation at each working set, counted or simulated: where the time steps up, the misses should too.</figcaption></figure>"
            );
        }
    }
    out
}

fn environment(doc: &ResultDocument) -> String {
    let e = &doc.environment;
    let mut parts: Vec<String> = Vec::new();
    if let Some(m) = &e.cpu_model {
        parts.push(m.clone());
    }
    if let (Some(c), Some(t)) = (e.cores, e.threads) {
        parts.push(format!("{c} cores, {t} threads"));
    }
    if let Some(k) = &e.kernel {
        parts.push(format!("kernel {k}"));
    }
    if !e.governors.is_empty() {
        parts.push(format!("governor {}", e.governors.join("/")));
    }
    if let Some(v) = &e.virtualization {
        parts.push(format!("virtualised: {v}"));
    }
    if let Some(h) = &e.hostname {
        parts.push(format!("host {h}"));
    }
    format!("<p class=\"meta\">{}</p>", escape(&parts.join(" · ")))
}

/// The machine the result was measured on, on every page (a load or profile page had
/// none): its record as `plumb env` shows it, and what the run's checks found about it.
fn machine_section(doc: &ResultDocument) -> String {
    let mut out = String::from("<h2>The machine and the run</h2>");
    if !doc.diagnostics.is_empty() {
        out.push_str(&diagnostics(&doc.diagnostics));
    }
    if !doc.machine_recorded() {
        out.push_str(
            "<p>The machine was not recorded: an import holds only what its file says.</p>",
        );
        return out;
    }
    out.push_str("<details><summary>The machine's record</summary><table><tbody>");
    for (k, v) in crate::env_view::record_rows(&doc.environment) {
        let _ = write!(
            out,
            "<tr><th>{}</th><td>{}</td></tr>",
            escape(k),
            escape(&v)
        );
    }
    out.push_str("</tbody></table></details>");
    out
}

fn results_table(doc: &ResultDocument) -> String {
    if doc.benchmarks.iter().all(|b| b.load().is_some()) {
        return String::new();
    }
    let mut out = format!("<h2>Results</h2>{}", html_table(&summary_table(doc, true)));
    for (caption, t) in crate::counter_rows::counter_tables(doc) {
        let _ = write!(
            out,
            "<p>{}</p>{}",
            escape(caption.trim_end_matches(':')),
            html_table(&t)
        );
    }
    out
}

/// A table of formatted cells, numbers right-aligned.
fn html_table(t: &Table) -> String {
    let mut out = String::from("<table><thead><tr>");
    for h in &t.header {
        let _ = write!(out, "<th>{}</th>", escape(h));
    }
    out.push_str("</tr></thead><tbody>");
    for row in &t.rows {
        out.push_str("<tr>");
        for (cell, numeric) in row.iter().zip(&t.numeric) {
            let class = if *numeric { " class=\"n\"" } else { "" };
            let _ = write!(out, "<td{class}>{}</td>", escape(cell));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}
