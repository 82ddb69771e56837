//! The report page: one self-contained HTML file (no fetches: styles inline, charts as
//! inline SVG, hover values as SVG titles, so it reads without script), readable in
//! light and dark schemes and in print.

use super::benchmark_section::benchmark_section;
use super::flame::flame_chart;
use super::forest::forest_chart;
use super::svg::escape;
use super::sweep::{sweep_chart, sweep_misses_chart};
use crate::rows::{summary_table, Table};
use plumb_model::sweep::sweeps;
use plumb_model::{Diagnostic, ResultDocument, RunStatus};
use std::fmt::Write;

use super::STYLE;

/// The page of `docs`, each read from the path beside it.
pub fn page(docs: &[(&str, &ResultDocument)]) -> String {
    let title = match docs {
        [("", doc)] => format!("plumb report: {}", doc.invocation.argv.join(" ")),
        [(path, _)] => format!("plumb report: {path}"),
        _ => format!("plumb report: {} results", docs.len()),
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>{}</title><style>{STYLE}</style></head><body>\n",
        escape(&title)
    );
    for (path, doc) in docs {
        out.push_str(&document(path, doc));
    }
    out.push_str("</body></html>\n");
    out
}

fn document(path: &str, doc: &ResultDocument) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<header><h1>{}</h1><p class=\"meta\">{}{} · plumb {}</p>{}</header>",
        escape(&doc.invocation.argv.join(" ")),
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
    if !doc.diagnostics.is_empty() {
        out.push_str("<h2>The machine and the run</h2>");
        out.push_str(&diagnostics(&doc.diagnostics));
    }
    out.push_str(&results_table(doc));
    out.push_str(&sweep_sections(doc));
    if !doc.comparisons.is_empty() {
        out.push_str("<h2>Verdicts</h2>");
        let _ = write!(
            out,
            "<figure>{}<figcaption>Each ratio with its interval; the shaded band is the smallest effect of interest (±{:.1} %): an interval beyond it is faster or slower, inside it equivalent, across its edge inconclusive.</figcaption></figure><ul>",
            forest_chart(&doc.comparisons, doc.settings.sesoi.get()),
            100.0 * doc.settings.sesoi.get()
        );
        for c in &doc.comparisons {
            let _ = write!(
                out,
                "<li><b>{}</b> against {}: <span class=\"{v}\">{}</span> (ratio ×{:.3}). {}</li>",
                escape(&c.candidate),
                escape(&c.baseline),
                match c.verdict {
                    plumb_model::Verdict::Faster | plumb_model::Verdict::Slower =>
                        escape(&crate::speed::speed_text(c)),
                    v => v.to_string(),
                },
                c.ratio,
                escape(&crate::reason_text(c)),
                v = c.verdict
            );
        }
        out.push_str("</ul>");
    }
    for b in &doc.benchmarks {
        out.push_str(&benchmark_section(b));
    }
    for p in &doc.profiles {
        out.push_str(&profile_section(doc, p));
    }
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
    let text = console::strip_ansi_codes(&crate::render_profile(p, settings, 20)).into_owned();
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

/// Each finding with its severity, message, the figures beside it and advice.
pub fn diagnostics(ds: &[Diagnostic]) -> String {
    let mut out = String::from("<ul class=\"diagnostics\">");
    for d in ds {
        let sev = format!("{:?}", d.severity).to_lowercase();
        let w = crate::finding::words(&d.finding);
        let _ = write!(
            out,
            "<li><span class=\"{sev}\">{sev}</span> <code>{}</code> {}",
            d.code(),
            escape(&w.message)
        );
        if let Some(details) = &w.details {
            let _ = write!(out, " <span class=\"muted\">({})</span>", escape(details));
        }
        if let Some(advice) = &w.advice {
            let _ = write!(out, "<br><span class=\"muted\">{}</span>", escape(advice));
        }
        out.push_str("</li>");
    }
    out.push_str("</ul>");
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
