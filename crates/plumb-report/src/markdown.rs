//! The Markdown export: a GitHub-flavoured report of the table, verdicts and diagnostics.
use crate::counter_rows::{counter_tables, not_simulated};
use crate::rows::{summary_table, Table};
use crate::speed::ratio_text;
use crate::sweep_rows::sweep_tables;
use plumb_model::{ResultDocument, RunStatus};
use std::fmt::Write;

/// A GitHub-flavoured Markdown report: the table, verdicts and diagnostics.
pub fn render_markdown(doc: &ResultDocument) -> String {
    let t = summary_table(doc, true);
    let mut out = String::new();
    match &doc.status {
        RunStatus::Complete => {}
        RunStatus::Interrupted { signal } => {
            let by = signal.as_deref().unwrap_or("a signal");
            let _ = write!(
                out,
                "> **Interrupted** by {by}: figures are from the runs measured before it.\n\n"
            );
        }
        RunStatus::Failed { message } => {
            let _ = write!(out, "> **Stopped**: {}\n\n", message.replace('\n', " "));
        }
    }
    let cell = |s: &str| s.replace('|', "\\|");
    write_table(&mut out, &t);
    for (caption, c) in counter_tables(doc) {
        let _ = write!(out, "\n{caption}\n\n");
        write_table(&mut out, &c);
    }
    for (name, why) in not_simulated(doc) {
        let _ = writeln!(out, "\n> {}: {why}", cell(name));
    }
    for (caption, t) in sweep_tables(doc) {
        let _ = write!(out, "\n{caption}\n\n");
        write_table(&mut out, &t);
    }
    if let Some(r) = &doc.rounds {
        out.push_str(&crate::revisions_view::rounds_markdown(r));
    }
    if let Some(r) = &doc.revisions {
        out.push_str(&crate::revisions_view::revisions_markdown(r));
    }
    if !doc.comparisons.is_empty() {
        let _ = write!(
            out,
            "\n**Verdicts** on the {} (SESOI ±{}, {} confidence)\n\n| Benchmark | Verdict | Ratio [CI] | Reason |\n|:---|:---|:---|:---|\n",
            doc.comparisons[0].question.describe(),
            doc.settings.sesoi,
            doc.settings.confidence
        );
        for c in &doc.comparisons {
            let _ = writeln!(
                out,
                "| {} | **{}** | {} | {} |",
                cell(&c.candidate),
                crate::speed::verdict_said(c),
                ratio_text(c),
                cell(&crate::reason::reason_text(c))
            );
        }
        out.push_str(&explained(doc));
    }
    let diag = diagnostics(doc);
    if !diag.is_empty() {
        let _ = write!(out, "\n**Diagnostics**\n\n{diag}");
    }
    out
}

/// Each benchmark's findings, then the machine's warnings and a count of its notes (as on
/// the terminal), one list item each.
fn diagnostics(doc: &ResultDocument) -> String {
    let cell = |s: &str| s.replace('|', "\\|");
    let mut diag = String::new();
    for b in &doc.benchmarks {
        for d in &b.diagnostics {
            let _ = writeln!(
                diag,
                "- `{}` **{}**: {}",
                cell(&b.name),
                d.code(),
                crate::finding::message(&d.finding)
            );
        }
    }
    // As on the terminal: the machine's warnings, and a count of its notes.
    let (warnings, notes): (Vec<_>, Vec<_>) = doc
        .diagnostics
        .iter()
        .partition(|d| d.severity >= plumb_model::Severity::Warning);
    for d in warnings {
        let _ = writeln!(
            diag,
            "- machine **{}**: {}",
            d.code(),
            crate::finding::message(&d.finding)
        );
    }
    if !notes.is_empty() {
        let _ = writeln!(
            diag,
            "- machine: {} note(s) not shown (`plumb env` shows every check)",
            notes.len()
        );
    }
    diag
}

/// The table, verdicts and diagnostics as Markdown.
pub struct MarkdownExporter;

impl crate::exporter::Exporter for MarkdownExporter {
    fn export(&self, doc: &plumb_model::ResultDocument) -> String {
        render_markdown(doc)
    }
}

fn write_table(out: &mut String, t: &Table) {
    let cell = |s: &str| s.replace('|', "\\|");
    let _ = writeln!(out, "| {} |", t.header.join(" | "));
    let align: Vec<&str> = t
        .numeric
        .iter()
        .map(|&n| if n { "---:" } else { ":---" })
        .collect();
    let _ = writeln!(out, "|{}|", align.join("|"));
    for r in &t.rows {
        let cells: Vec<String> = r.iter().map(|c| cell(c)).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
}

/// Under the verdicts: what moved besides time, and what it says, per comparison.
fn explained(doc: &ResultDocument) -> String {
    let cell = |s: &str| s.replace('|', "\\|");
    let mut out = String::new();
    for c in doc.comparisons.iter().filter(|c| !c.counters.is_empty()) {
        let notes: String = c
            .notes
            .iter()
            .map(|d| format!(" **{}**: {}", d.code(), crate::finding::message(&d.finding)))
            .collect();
        let _ = writeln!(
            out,
            "\n> {}: {}{}",
            cell(&c.candidate),
            crate::reason::counter_changes_text(c).unwrap_or_default(),
            cell(&notes)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn is_a_table_with_escaped_pipes_and_verdicts() {
        let md = super::render_markdown(&crate::fixture::document());
        let lines: Vec<&str> = md.lines().collect();
        assert!(lines[0].starts_with("| Benchmark | Mean | Error |"), "{md}");
        assert!(lines[1].starts_with("|:---|---:|"), "{md}");
        assert!(
            lines[2].starts_with("| fast \\| one (baseline) | 10.00 ms |"),
            "{md}"
        );
        assert!(md.contains("| slow | **2.00× slower ["), "{md}");
        assert!(
            md.contains("** | ×2.000 ["),
            "the ratio kept in its column: {md}"
        );
    }
}
