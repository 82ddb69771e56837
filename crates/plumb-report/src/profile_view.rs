//! A profile in words and tables: the top functions (terminal and Markdown), an
//! annotation, a differential table, and Amdahl's statement.

use plumb_model::format;
use plumb_model::{
    AllocationProfile, AmdahlCase, AmdahlPrediction, AnnotatedLine, Annotation, Profile,
    ProfileSettings, ShareChange,
};
use std::fmt::Write;

/// One row of the top-functions table, in percentage points.
struct Row<'a> {
    self_pct: f64,
    /// Half-width of the self share's 95 % sampling interval.
    noise: f64,
    total_pct: f64,
    samples: u64,
    module: &'a str,
    name: &'a str,
}

/// The first `top` rows, for the terminal and Markdown alike.
fn rows(p: &Profile, top: usize) -> impl Iterator<Item = Row<'_>> {
    p.functions.iter().take(top).map(|f| Row {
        self_pct: p.share(f.self_samples) * 100.0,
        noise: p.share_half_width(f.self_samples, 0.95) * 100.0,
        total_pct: p.share(f.total_samples) * 100.0,
        samples: f.self_samples,
        module: module_name(&f.module),
        name: &f.name,
    })
}

/// The file name of a module; perf's `inlined` (a frame inlined into its caller) shown
/// as such.
fn module_name(module: &str) -> &str {
    if module == "inlined" {
        return "(inlined)";
    }
    module.rsplit('/').next().unwrap_or(module)
}

/// The header line: what, how many samples, how they were taken.
pub fn profile_header(p: &Profile, s: Option<&ProfileSettings>) -> String {
    let how = s.map_or(String::new(), |s| format!(" ({})", s.describe()));
    let mut out = format!("profile of {}: {} samples{how}\n", p.name, p.samples);
    for note in profile_notes(p, s) {
        let _ = writeln!(out, "  note: {note}");
    }
    out
}

/// What a reader of the table must know: unwinding, lost samples, code left out, names
/// missing, how the command ended.
pub fn profile_notes(p: &Profile, s: Option<&ProfileSettings>) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(s) = s {
        notes.push(format!("stacks: {}", s.call_graph_why));
    }
    if p.outside_samples > 0 {
        notes.push(format!(
            "{} samples outside the measured loop (the harness, setup, other code) left out",
            p.outside_samples
        ));
    }
    if p.lost > 0 {
        notes.push(format!(
            "perf lost samples {} times (its buffer was full): shares may be skewed; lower --frequency",
            p.lost
        ));
    }
    for m in &p.unsymbolised {
        notes.push(format!(
            "{m} has no symbols (stripped?): its frames are addresses; rebuild with symbols (-g, or not stripped) to see names"
        ));
    }
    if let Some(e) = p.exit.filter(|e| !e.success()) {
        notes.push(match e {
            plumb_model::Exit::Code(c) => format!("the command exited with status {c}: this is the profile of what ran until then"),
            plumb_model::Exit::Signal { signal } => format!("the command was killed by signal {signal}: this is the profile of what ran until then"),
        });
    }
    notes
}

/// At most `width` characters, the end kept (a module's distinguishing suffix).
fn clip(s: &str, width: usize) -> String {
    let n = s.chars().count();
    if n <= width {
        return s.to_string();
    }
    let tail: String = s.chars().skip(n - (width - 1)).collect();
    format!("…{tail}")
}

/// The top `top` functions by self samples.
pub fn render_profile(p: &Profile, s: Option<&ProfileSettings>, top: usize) -> String {
    let mut out = profile_header(p, s);
    if p.samples == 0 {
        return out;
    }
    let _ = writeln!(
        out,
        "\n  {:>7} {:>6} {:>10} {:>8}  {:<20} function",
        "self %", "±", "children %", "samples", "module"
    );
    for r in rows(p, top) {
        let _ = writeln!(
            out,
            "  {:>7.1} {:>6.1} {:>10.1} {:>8}  {:<20} {}",
            r.self_pct,
            r.noise,
            r.total_pct,
            r.samples,
            clip(r.module, 20),
            r.name
        );
    }
    if p.functions.len() > top {
        let _ = writeln!(out, "  … {} more functions", p.functions.len() - top);
    }
    out.push_str("\n  self %: samples in the function's own code; ± its 95 % sampling interval, in points; children %: samples with it anywhere on the stack.\n");
    out
}

/// The same table in Markdown, with every note.
pub fn profile_markdown(p: &Profile, s: Option<&ProfileSettings>, top: usize) -> String {
    let mut out = format!("## Profile of `{}`\n\n{} samples", p.name, p.samples);
    if let Some(s) = s {
        let _ = write!(out, ", {}", s.describe());
    }
    out.push_str(".\n\n");
    for note in profile_notes(p, s) {
        let _ = writeln!(out, "- {note}");
    }
    out.push_str("\n| self % | ± (95 %) | children % | samples | function | module |\n|---:|---:|---:|---:|---|---|\n");
    for r in rows(p, top) {
        let _ = writeln!(
            out,
            "| {:.1} | {:.1} | {:.1} | {} | `{}` | {} |",
            r.self_pct,
            r.noise,
            r.total_pct,
            r.samples,
            r.name.replace('|', "\\|"),
            r.module
        );
    }
    out
}

/// The table, then each annotation and the allocation sites, as `plumb profile` prints
/// them.
pub fn render_profile_with_details(p: &Profile, s: Option<&ProfileSettings>, top: usize) -> String {
    let mut out = render_profile(p, s, top);
    for a in &p.annotations {
        out.push('\n');
        out.push_str(&render_annotation(a));
    }
    if let Some(allocations) = &p.allocations {
        out.push('\n');
        out.push_str(&render_allocations(allocations, top));
    }
    out
}

/// The Markdown table, then each annotation and the allocation sites as code blocks.
pub fn profile_markdown_with_details(
    p: &Profile,
    s: Option<&ProfileSettings>,
    top: usize,
) -> String {
    let mut out = profile_markdown(p, s, top);
    for a in &p.annotations {
        let _ = write!(out, "\n```\n{}```\n", render_annotation(a));
    }
    if let Some(allocations) = &p.allocations {
        let _ = write!(out, "\n```\n{}```\n", render_allocations(allocations, top));
    }
    out
}

/// The call sites that allocate most, with counts and bytes (per operation for a
/// benchmark).
pub fn render_allocations(a: &AllocationProfile, top: usize) -> String {
    let what = match a.per_operations {
        Some(n) => format!(
            "allocations per operation (valgrind DHAT, {} calls subtracted from {})",
            n,
            2 * n
        ),
        None => "allocations of the whole run (valgrind DHAT)".to_string(),
    };
    let mut out = format!(
        "{what}: {} blocks, {}\n\n  {:>12} {:>14}  site (innermost first)\n",
        count(a.blocks),
        plumb_model::format::value(plumb_model::Unit::Bytes, a.bytes),
        "blocks",
        "bytes"
    );
    for site in a.sites.iter().take(top) {
        let _ = writeln!(
            out,
            "  {:>12} {:>14}  {}",
            count(site.blocks),
            count(site.bytes),
            site.frames.join(" ← ")
        );
    }
    if a.sites.len() > top {
        let _ = writeln!(out, "  … {} more sites", a.sites.len() - top);
    }
    out
}

/// Whole counts as integers, fractions (per operation) to three significant digits.
fn count(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else if v.abs() >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

/// Instructions with their samples and share of the function, source lines between.
pub fn render_annotation(a: &Annotation) -> String {
    let mut out = format!(
        "annotation of {}: {} samples (every sample whose instruction lies in its code, including code inlined into it, which the table counts under the inlined function's name)\n",
        a.function, a.samples
    );
    let has_source = a
        .lines
        .iter()
        .any(|l| matches!(l, AnnotatedLine::Source { .. }));
    if !has_source {
        out.push_str("  (no source lines: the binary has no debug info; build with -g)\n");
    }
    for line in &a.lines {
        let _ = match line {
            AnnotatedLine::Source { line, text } => writeln!(
                out,
                "  {:>8} {:>7}   {:>6} │ {text}",
                "",
                "",
                line.map_or(String::new(), |n| n.to_string())
            ),
            AnnotatedLine::Instruction {
                address,
                text,
                samples,
            } => {
                let pct = if a.samples > 0 && *samples > 0 {
                    format!("{:.1} %", *samples as f64 * 100.0 / a.samples as f64)
                } else {
                    String::new()
                };
                let samples = if *samples > 0 {
                    samples.to_string()
                } else {
                    String::new()
                };
                writeln!(out, "  {samples:>8} {pct:>7}   {address:>6}:  {text}")
            }
        };
    }
    out
}

/// The functions whose share moved most, with the samples behind each share.
pub fn render_share_changes(before: &str, after: &str, rows: &[ShareChange], top: usize) -> String {
    let mut out = format!(
        "self share, {before} → {after}\n\n  {:<40} {:>16} {:>16} {:>9}\n",
        "function", "before", "after", "change"
    );
    for r in rows.iter().take(top) {
        let _ = writeln!(
            out,
            "  {:<40} {:>16} {:>16} {:>+8.1}  {}",
            r.name,
            format!("{:.1} % ({})", r.before_share * 100.0, r.before_samples),
            format!("{:.1} % ({})", r.after_share * 100.0, r.after_samples),
            r.change() * 100.0,
            if r.moved {
                "moved"
            } else {
                "within sampling noise"
            }
        );
    }
    out.push_str("\n  change in points; \"moved\": beyond sampling noise at 95 % for the table as a whole (Bonferroni over its rows).\n");
    out
}

/// Amdahl's statement in a sentence or two.
pub fn render_amdahl(p: &AmdahlPrediction) -> String {
    // A speedup typed in is exact: no interval of zero width beside it (issue 24, 20).
    let given = p.speedup_interval.lo == p.speedup && p.speedup_interval.hi == p.speedup;
    let x = format::factor;
    let speedup = if given {
        format!("{}× faster (as given)", x(p.speedup))
    } else {
        let i = p.speedup_interval;
        format!("{}× faster [{}, {}]", x(p.speedup), x(i.lo), x(i.hi))
    };
    let mut out = format!(
        "{} is on the stack in {:.1} % of the samples [{:.1}, {:.1}]; made {speedup}, the whole can be at most 1 / (1 − f + f/S) = {}× faster [{}, {}] (Amdahl).\n",
        p.function,
        p.share * 100.0,
        p.share_interval.lo * 100.0,
        p.share_interval.hi * 100.0,
        x(p.predicted),
        x(p.predicted_interval.lo),
        x(p.predicted_interval.hi)
    );
    if let (Some(m), Some(mi), Some(case)) = (p.measured, p.measured_interval, p.case) {
        let said = match case {
            AmdahlCase::AsPredicted => "as predicted",
            AmdahlCase::LessThanPredicted => "less than predicted: the micro-benchmark does not represent the function's real workload (other inputs, a colder cache, other callers), or the gain is lost elsewhere",
            AmdahlCase::MoreThanPredicted => "more than predicted: something besides the function got faster too (less pressure on caches or the allocator, a changed layout)",
        };
        let _ = writeln!(
            out,
            "Measured end to end: {}× [{}, {}]: {said}.",
            x(m),
            x(mi.lo),
            x(mi.hi)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::ProfiledFunction;

    fn profile() -> Profile {
        Profile {
            name: "./shares".into(),
            samples: 1000,
            outside_samples: 12,
            lost: 0,
            stacks: Vec::new(),
            functions: vec![ProfiledFunction {
                name: "heavy".into(),
                module: "/tmp/shares".into(),
                self_samples: 700,
                total_samples: 700,
            }],
            unsymbolised: vec!["/tmp/stripped".into()],
            exit: Some(plumb_model::Exit::Signal { signal: 11 }),
            annotations: Vec::new(),
            allocations: None,
        }
    }

    #[test]
    fn the_table_shows_shares_noise_and_notes() {
        let text = render_profile(&profile(), None, 10);
        // 1.959964 · sqrt(0.7 · 0.3 / 1000) = 2.84 points.
        let row = format!("   70.0    2.8       70.0      700  {:<20} heavy", "shares");
        assert!(text.contains(&row), "{text}");
        assert!(text.contains("12 samples outside the measured loop"));
        assert!(text.contains("/tmp/stripped has no symbols"));
        assert!(text.contains("killed by signal 11"));
        let md = profile_markdown(&profile(), None, 10);
        assert!(
            md.contains("| 70.0 | 2.8 | 70.0 | 700 | `heavy` | shares |"),
            "{md}"
        );
    }

    #[test]
    fn annotation_lines_carry_their_share() {
        let a = Annotation {
            function: "heavy".into(),
            samples: 4,
            lines: vec![
                AnnotatedLine::Source {
                    line: Some(24),
                    text: "x = x * k;".into(),
                },
                AnnotatedLine::Instruction {
                    address: "1244".into(),
                    text: "add $0x1,%rdx".into(),
                    samples: 3,
                },
                AnnotatedLine::Instruction {
                    address: "1248".into(),
                    text: "ret".into(),
                    samples: 1,
                },
            ],
        };
        let text = render_annotation(&a);
        assert!(
            text.contains("       3  75.0 %     1244:  add $0x1,%rdx"),
            "{text}"
        );
        assert!(text.contains("24 │ x = x * k;"));
    }
}
