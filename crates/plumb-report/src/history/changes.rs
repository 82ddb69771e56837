//! `plumb history changes`: every change point the last analysis found, as a table or
//! Markdown — where (`series@run`), its commits, the levels either side with their
//! intervals, the change, its p-value and status — each read from the change's record.
use super::commits_of;
use plumb_history::SeriesRecord;
use plumb_history::{Level, StoredChange};
use plumb_model::format;
use plumb_model::quantity::Fraction;
use std::fmt::Write;

/// One change in words: where, from what to what, by how much, how sure, its status;
/// none for a change without what an analysis found of it.
fn said(h: &SeriesRecord, c: &StoredChange) -> Option<[String; 6]> {
    let (f, index) = (c.found?, h.start_of(c)?);
    let unit = h.unit();
    let level = |l: &Level| match l.interval {
        Some((lo, hi)) => format!(
            "{} [{}, {}] ({} points)",
            format::value(unit, l.mean),
            format::value(unit, lo),
            format::value(unit, hi),
            l.n
        ),
        None => format!("{} ({} points)", format::value(unit, l.mean), l.n),
    };
    let status = format!("{}{}", c.status.name(), if c.new { ", new" } else { "" });
    Some([
        format!("{}@{}", h.series.id, c.run),
        commits_of(h, index),
        format!("{} → {}", level(&f.before), level(&f.after)),
        format::signed_percent(f.relative()),
        format!("{:.1e}", f.p),
        status,
    ])
}

/// The table: how many series and changes, by which `method`, then each series' changes.
pub fn render_changes(all: &[SeriesRecord], method: &str) -> String {
    let mut out = String::new();
    let total: usize = all.iter().map(|h| h.changes.len()).sum();
    let _ = writeln!(
        out,
        "{} series, {} change point{} ({method})",
        all.len(),
        total,
        if total == 1 { "" } else { "s" },
    );
    for h in all.iter().filter(|h| !h.changes.is_empty()) {
        let _ = writeln!(out, "\n{}  [{}]", h.series.name(), h.series.key.machine.0);
        for c in &h.changes {
            let Some([id, range, levels, rel, p, status]) = said(h, c) else {
                continue;
            };
            let _ = writeln!(
                out,
                "  {id:<8} {range:<23} {levels}  {rel:>7}  p={p}  {status}"
            );
        }
    }
    out
}

/// Markdown for a pull request: each change a row, 🔴 on those `fails` (new, slower by
/// more than the `sesoi`).
pub fn render_changes_markdown(
    all: &[SeriesRecord],
    method: &str,
    sesoi: Fraction,
    fails: &dyn Fn(&StoredChange) -> bool,
) -> String {
    let mut out = String::from("## plumb history: change points\n\n");
    let rows: Vec<_> = all
        .iter()
        .flat_map(|h| {
            h.changes
                .iter()
                .filter_map(move |c| Some((h, c, said(h, c)?)))
        })
        .collect();
    if rows.is_empty() {
        let _ = writeln!(out, "No change point in {} series ({method}).", all.len());
        return out;
    }
    let _ = writeln!(
        out,
        "{} change point(s) in {} series ({method}). 🔴: new, slower by more than the SESOI ({}).\n",
        rows.len(),
        all.len(),
        format::percent(sesoi.get())
    );
    out.push_str("| | series | change | commits | before → after | change | p | status |\n|---|---|---|---|---|---|---|---|\n");
    for (h, c, [id, range, levels, rel, p, status]) in rows {
        let mark = if fails(c) { "🔴" } else { "" };
        let _ = writeln!(
            out,
            "| {mark} | {} | `{id}` | `{range}` | {levels} | {rel} | {p} | {status} |",
            h.series.name().replace('|', "\\|")
        );
    }
    out
}
