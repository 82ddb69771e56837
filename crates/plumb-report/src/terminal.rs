//! The run's report for a terminal: the table, verdicts and diagnostics, coloured when it may be.
use crate::counter_rows::{counter_tables, not_simulated};
use crate::rows::{summary_table, Table};
use crate::sweep_rows::sweep_tables;
use console::{style, Style};
use plumb_model::format;
use plumb_model::{Comparison, Diagnostic, Metric, ResultDocument, RunStatus, Severity, Verdict};
use std::fmt::Write;

/// How much a terminal report says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// What changes a decision: the table's main columns, the verdicts (none between a
    /// sweep's sizes: the sweep's own table says that), each finding on one line.
    Short,
    /// Everything: every column, every finding with its evidence and advice (`-v`,
    /// `plumb show`).
    Full,
}

impl Detail {
    /// Full with `-v`, short without.
    pub fn verbose(verbose: bool) -> Detail {
        if verbose {
            Detail::Full
        } else {
            Detail::Short
        }
    }
}

/// A saved result's report for a terminal with everything in it (`plumb show`): its
/// machine is the one it was measured on, which `plumb show --environment` shows (`plumb
/// env` describes this one).
pub fn render_terminal(doc: &ResultDocument) -> String {
    render(
        doc,
        Detail::Full,
        "plumb show --environment shows that machine's record",
    )
}

/// The report of a run just made, on this machine (`plumb env` describes it).
pub fn render_terminal_at(doc: &ResultDocument, detail: Detail) -> String {
    render(doc, detail, "plumb env shows every check and its evidence")
}

/// The run's report for a terminal: the table, the verdicts, then the diagnostics;
/// `machine` says where the machine's record is. Colour follows `console`'s detection
/// (off when not a terminal or with NO_COLOR).
fn render(doc: &ResultDocument, detail: Detail, machine: &str) -> String {
    let mut out = status_line(&doc.status);
    out.push_str(&render_table(&summary_table(doc, detail == Detail::Full)));
    for (caption, t) in counter_tables(doc) {
        let _ = writeln!(out, "\n{caption}");
        out.push_str(&render_table(&t));
    }
    for (name, why) in not_simulated(doc) {
        let _ = writeln!(out, "{}", style(format!("  {name}: {why}")).yellow());
    }
    for (caption, t) in sweep_tables(doc) {
        let _ = writeln!(out, "\n{caption}");
        out.push_str(&render_table(&t));
    }
    out.push_str(&corrections(doc));
    out.push_str(&between_runs(doc));
    if let Some(r) = &doc.revisions {
        out.push_str(&crate::revisions_view::revisions_text(r));
    } else if let Some(r) = &doc.rounds {
        out.push_str(&crate::revisions_view::rounds_text(r));
    }
    out.push_str(&verdicts(doc, detail));
    let findings = match detail {
        Detail::Full => findings_in_full(doc, machine),
        Detail::Short => findings_in_short(doc, machine),
    };
    if !findings.is_empty() {
        let _ = write!(out, "\nDiagnostics:\n{findings}");
    }
    if detail == Detail::Short {
        let _ = writeln!(
            out,
            "{}",
            style("(-v: every column, and each finding's figures and advice)").dim()
        );
    }
    out
}

/// What the table's Error holds, said under it: each mean's interval between runs where
/// the history measured the drift, else that Error is this run's alone.
fn between_runs(doc: &ResultDocument) -> String {
    let level = doc.settings.confidence;
    let mut out = String::new();
    let mut own_only = false;
    for b in &doc.benchmarks {
        let Some(t) = b.time().filter(|t| t.mean_ci.is_some()) else {
            continue;
        };
        let Some(x) = &t.between_runs else {
            own_only = true;
            continue;
        };
        let unit = format::unit_of(b, &Metric::WallTime);
        let text = format!(
            "  {}: {} ± {} between runs ({level}: Error and the ±{} drift of its last {} runs here, since {})",
            b.name,
            format::value(unit, t.summary.mean),
            format::value(unit, x.mean_ci.half_width()),
            format::percent(x.noise),
            x.runs,
            x.since,
        );
        let _ = writeln!(out, "{}", style(text).dim());
    }
    if own_only {
        let text = format!(
            "  Error: this run's {level} interval; the next run may land outside it ({} runs kept with --save measure the drift)",
            plumb_model::BetweenRuns::FEWEST_RUNS
        );
        let _ = writeln!(out, "{}", style(text).dim());
    }
    out
}

/// What a run that measured nothing says: stopped by `stop` (a signal's name) before its
/// first measured run ended — during warm-up, when there was one (with --warmup 0 the stop
/// cut the first measured run short) — or nothing at all.
pub fn nothing_measured(doc: &ResultDocument, stop: Option<&str>) -> String {
    let Some(signal) = stop else {
        return "plumb: nothing was measured".to_string();
    };
    let when = if doc.benchmarks.iter().any(|b| !b.warmup.is_empty()) {
        "before the first measured run (during warm-up)"
    } else {
        "before the first run ended"
    };
    format!("plumb: stopped by {signal} {when}: nothing was measured")
}

/// A fixed cost subtracted from each run, said under the table.
fn corrections(doc: &ResultDocument) -> String {
    let mut out = String::new();
    for b in &doc.benchmarks {
        for c in &b.corrections {
            let unit = format::unit_of(b, &c.metric);
            let text = format!(
                "  {}: {} ± {} ({}) subtracted from each run",
                b.name,
                format::value(unit, c.value),
                format::value(unit, c.std_err),
                c.reason
            );
            let _ = writeln!(out, "{}", style(text).dim());
        }
    }
    out
}

/// The verdicts; in short, none for a sweep's points (each judged against the smallest
/// size, which the sweep's table already shows step by step).
fn verdicts(doc: &ResultDocument, detail: Detail) -> String {
    let in_sweep: Vec<&str> = plumb_model::sweep::sweeps(&doc.benchmarks)
        .iter()
        .flat_map(|s| s.points.iter().map(|&i| doc.benchmarks[i].name.as_str()))
        .collect();
    let shown: Vec<&Comparison> = doc
        .comparisons
        .iter()
        .filter(|c| detail == Detail::Full || !in_sweep.contains(&c.candidate.as_str()))
        .collect();
    if shown.is_empty() {
        return String::new();
    }
    let question = shown[0].question;
    let mut out = format!(
        "\nVerdicts on the {} (SESOI ±{}, {} confidence):\n",
        question.describe(),
        doc.settings.sesoi,
        doc.settings.confidence
    );
    for c in shown {
        out.push_str(&verdict_line(c, detail));
    }
    out
}

/// Every finding with its figures and advice, by benchmark, then the machine's.
fn findings_in_full(doc: &ResultDocument, machine_hint: &str) -> String {
    let mut findings = String::new();
    for b in &doc.benchmarks {
        if !b.diagnostics.is_empty() {
            let _ = writeln!(findings, "  {}", style(&b.name).bold());
            findings.push_str(&render_diagnostics(&b.diagnostics, 4));
        }
    }
    let machine: Vec<Diagnostic> = doc
        .diagnostics
        .iter()
        .filter(|d| d.severity >= Severity::Warning)
        .cloned()
        .collect();
    let notes = doc.diagnostics.len() - machine.len();
    if !machine.is_empty() || notes > 0 {
        let _ = writeln!(findings, "  {}", style("machine").bold());
        findings.push_str(&render_diagnostics(&machine, 4));
        let more = if notes > 0 {
            format!("{notes} note(s) not shown; ")
        } else {
            String::new()
        };
        let _ = writeln!(findings, "    ({more}{machine_hint})");
    }
    findings
}

/// A code found in at least this many benchmarks is said once in the short report.
const GROUP_FROM: usize = 4;

/// Warnings and errors, one line each ("! outliers · sleep 0.01: …"); the machine's as
/// one line of codes.
fn findings_in_short(doc: &ResultDocument, machine_hint: &str) -> String {
    let mut findings = String::new();
    let warned = |b: &'_ plumb_model::Benchmark| {
        b.diagnostics
            .iter()
            .filter(|d| d.severity >= Severity::Warning)
            .map(|d| (d.code(), d.severity, crate::finding::message(&d.finding)))
            .collect::<Vec<_>>()
    };
    // A code found in many benchmarks (wide-ci at every size of a sweep) is one line.
    let mut counts: Vec<(plumb_model::DiagnosticCode, usize)> = Vec::new();
    for (code, _, _) in doc.benchmarks.iter().flat_map(warned) {
        match counts.iter_mut().find(|(c, _)| *c == code) {
            Some((_, n)) => *n += 1,
            None => counts.push((code, 1)),
        }
    }
    let mut grouped: Vec<plumb_model::DiagnosticCode> = Vec::new();
    for b in &doc.benchmarks {
        for (code, severity, message) in warned(b) {
            let many = counts.iter().find(|(c, _)| *c == code).map_or(1, |c| c.1);
            let whose = if many < GROUP_FROM {
                b.name.clone()
            } else if grouped.contains(&code) {
                continue;
            } else {
                grouped.push(code.clone());
                format!("{many} benchmarks, the first {}", b.name)
            };
            // Measured before styling: the marks' colour codes take no columns.
            let lead = format!("  {} {code} · {whose}: ", crate::finding::mark(severity));
            let _ = writeln!(
                findings,
                "  {} {} · {whose}: {}",
                styled_mark(severity),
                style(code).bold(),
                wrapped(lead.chars().count(), &message)
            );
        }
    }
    let machine: Vec<String> = doc
        .diagnostics
        .iter()
        .filter(|d| d.severity >= Severity::Warning)
        .map(|d| format!("{} {}", styled_mark(d.severity), d.code()))
        .collect();
    if !machine.is_empty() {
        let _ = writeln!(
            findings,
            "  machine: {} ({machine_hint})",
            machine.join(", ")
        );
    }
    findings
}

/// The short report's width: a finding's words wrap before it (a drift's figures made a
/// line of 126 columns), continued under the finding's mark.
const SHORT_WIDTH: usize = 120;

/// `message`, its first line starting `lead` columns in, wrapped at word ends.
fn wrapped(lead: usize, message: &str) -> String {
    let mut out = String::new();
    let mut column = lead;
    let mut line_start = true;
    for word in message.split(' ') {
        let width = word.chars().count();
        if !line_start && column + 1 + width > SHORT_WIDTH {
            out.push_str("\n      ");
            column = 6;
            line_start = true;
        }
        if !line_start {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += width;
        line_start = false;
    }
    out
}

fn styled_mark(severity: Severity) -> console::StyledObject<&'static str> {
    let mark = crate::finding::mark(severity);
    match severity {
        Severity::Error => style(mark).red().bold(),
        Severity::Warning => style(mark).yellow().bold(),
        Severity::Info => style(mark).dim(),
    }
}

/// How the run ended, when not complete.
fn status_line(status: &RunStatus) -> String {
    match status {
        RunStatus::Complete => String::new(),
        RunStatus::Interrupted { signal } => {
            let by = signal.as_deref().unwrap_or("a signal");
            let text = format!(
                "Interrupted by {by}: the figures below are from the runs measured before it."
            );
            format!("{}\n", style(text).yellow().bold())
        }
        RunStatus::Failed { message } => format!(
            "{} {}\nThe figures below are from the runs measured before the failure.\n",
            style("Stopped:").red().bold(),
            message.lines().next().unwrap_or_default()
        ),
    }
}

pub(crate) fn verdict_style(v: Verdict) -> Style {
    match v {
        Verdict::Faster => Style::new().green().bold(),
        Verdict::Slower => Style::new().red().bold(),
        Verdict::Equivalent => Style::new().cyan(),
        Verdict::Inconclusive => Style::new().yellow(),
    }
}

/// The verdict as it is read: "2.82× faster [2.78, 2.86]" or "1.84× slower […]" in the
/// verdict's colour; "equivalent ×1.003 […]" and "inconclusive ×1.05 […]" with their
/// ratio.
pub(crate) fn verdict_words(c: &Comparison) -> String {
    match c.verdict {
        Verdict::Faster | Verdict::Slower => verdict_style(c.verdict)
            .apply_to(crate::speed::speed_text(c))
            .to_string(),
        _ => format!(
            "{}  {}",
            verdict_style(c.verdict).apply_to(format!("{:<12}", c.verdict.to_string())),
            crate::speed::ratio_text(c)
        ),
    }
}

/// A verdict and its reason; in short, the reason wraps within the short width as a
/// finding's words do (both samples constant make a reason of 200 columns).
fn verdict_line(c: &Comparison, detail: Detail) -> String {
    let reason = crate::reason::reason_text(c);
    let reason = match detail {
        Detail::Short => wrapped(6, &reason),
        Detail::Full => reason,
    };
    let mut out = format!(
        "  {}  {}\n      {}\n",
        c.candidate,
        verdict_words(c),
        style(reason).dim()
    );
    out.push_str(&explained(c, 6));
    out
}

/// The counters that moved beside a verdict, and what they say about it.
pub(crate) fn explained(c: &Comparison, indent: usize) -> String {
    let mut out = String::new();
    if let Some(line) = crate::reason::counter_changes_text(c) {
        let _ = writeln!(out, "{}{}", " ".repeat(indent), style(line).dim());
    }
    out.push_str(&render_diagnostics(&c.notes, indent));
    out
}

/// Diagnostics as indented lines: a mark, the code, the message; the figures that did not
/// fit in it, dim; the advice.
pub fn render_diagnostics(diagnostics: &[Diagnostic], indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::new();
    for d in diagnostics {
        let mark = styled_mark(d.severity);
        let w = crate::finding::words(&d.finding);
        let _ = writeln!(out, "{pad}{mark} {}: {}", style(d.code()).bold(), w.message);
        if let Some(details) = &w.details {
            let _ = writeln!(out, "{pad}    {}", style(details).dim());
        }
        if let Some(advice) = &w.advice {
            let _ = writeln!(out, "{pad}    → {advice}");
        }
    }
    out
}

pub(crate) fn render_table(t: &Table) -> String {
    let widths: Vec<usize> = (0..t.header.len())
        .map(|i| {
            t.rows
                .iter()
                .map(|r| r[i].chars().count())
                .chain([t.header[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| -> String {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            let padding = " ".repeat(widths[i].saturating_sub(c.chars().count()));
            if t.numeric[i] {
                let _ = write!(s, " {padding}{c} ");
            } else {
                let _ = write!(s, " {c}{padding} ");
            }
            if i + 1 < cells.len() {
                s.push('│');
            }
        }
        s.trim_end().to_string()
    };
    let header: Vec<String> = t.header.iter().map(|h| h.to_string()).collect();
    let mut out = format!("{}\n", style(line(&header)).bold());
    let rule: Vec<String> = widths.iter().map(|w| "─".repeat(w + 2)).collect();
    out.push_str(&rule.join("┼"));
    out.push('\n');
    for r in &t.rows {
        out.push_str(&line(r));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_finding_wraps_within_the_short_width_and_a_short_one_is_kept() {
        let lead = "  ! drift · sleep 0.01: ".chars().count();
        let long = "times rise over the run (Mann-Kendall tau 0.49, p 1.8e-4); the second half averages +2.6% vs the first";
        let out = super::wrapped(lead, long);
        let mut lines = out.lines();
        assert!(lead + lines.next().unwrap().chars().count() <= super::SHORT_WIDTH);
        for l in lines {
            assert!(
                l.starts_with("      ") && l.chars().count() <= super::SHORT_WIDTH,
                "{l:?}"
            );
        }
        assert_eq!(
            out.split_whitespace().collect::<Vec<_>>(),
            long.split_whitespace().collect::<Vec<_>>()
        );
        assert_eq!(super::wrapped(lead, "few words"), "few words");
    }

    use super::*;

    #[test]
    fn table_has_one_unit_aligned_columns_and_the_verdict() {
        console::set_colors_enabled(false);
        let out = render_terminal(&crate::fixture::document());
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with(" Benchmark"), "{out}");
        assert!(lines[0].contains("Ratio │ RatioSD"), "{out}");
        // Every table line has its column separators at the same character positions.
        let seps = |l: &str| -> Vec<usize> {
            l.chars()
                .enumerate()
                .filter(|(_, c)| *c == '│' || *c == '┼')
                .map(|(i, _)| i)
                .collect()
        };
        assert_eq!(seps(lines[0]), seps(lines[1]));
        assert_eq!(seps(lines[0]), seps(lines[2]));
        assert_eq!(seps(lines[0]), seps(lines[3]));
        assert!(
            lines[2].starts_with(" fast | one (baseline) │ 10.00 ms"),
            "{out}"
        );
        assert!(lines[3].contains("│ 20.00 ms │"), "{out}");
        assert!(lines[3].contains("│  2.00 │"), "{out}");
        assert!(out.contains("slow  2.00× slower ["), "{out}");
        assert!(out.contains("│  2.00 │"), "the ratio in the table: {out}");
    }
}
