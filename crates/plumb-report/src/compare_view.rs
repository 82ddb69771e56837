//! `plumb compare`'s report: each paired benchmark's verdict, load percentiles, the unpaired ones.
use crate::reason::{percentile_reason_text, reason_text};
use crate::terminal::{render_diagnostics, verdict_style};
use console::style;
use plumb_model::format;
use plumb_model::{Comparison, ComparisonDocument, LoadComparison, Metric, ResultDocument, Unit};
use std::fmt::Write;

/// `plumb compare`'s report: one line per paired benchmark, then the unpaired ones.
pub fn render_document_comparison(
    base: &ResultDocument,
    new: &ResultDocument,
    cmp: &ComparisonDocument,
) -> String {
    // Said once when every comparison shares it; each row says its own otherwise (a
    // summary's median, a simulator's instructions).
    let first = cmp.comparisons.first();
    let shared = |same: &dyn Fn(&Comparison, &Comparison) -> bool| {
        first.filter(|f| cmp.comparisons.iter().all(|c| same(f, c)))
    };
    let metric = match shared(&|a, b| a.metric == b.metric).map(|c| &c.metric) {
        Some(m) if *m != Metric::WallTime => format!(" on {m} per operation"),
        _ => String::new(),
    };
    let question = shared(&|a, b| a.question == b.question)
        .map(|c| format!(", on the {}", c.question.describe()))
        .unwrap_or_default();
    let mut out = format!(
        "Comparing {} benchmark(s){metric}{question}: SESOI ±{}, {} confidence\n\n",
        cmp.comparisons.len() + cmp.load.len(),
        cmp.sesoi,
        cmp.confidence
    );
    for c in &cmp.comparisons {
        out.push_str(&comparison(base, new, c));
    }
    for l in &cmp.load {
        out.push_str(&render_load_comparison(l));
    }
    for name in &cmp.only_in_base {
        let _ = writeln!(out, "  {name}: only in the base result, not compared");
    }
    for name in &cmp.only_in_new {
        let _ = writeln!(out, "  {name}: only in the new result, not compared");
    }
    if !cmp.notes.is_empty() {
        out.push_str("\nThe two runs were not measured under the same conditions:\n");
        out.push_str(&render_diagnostics(&cmp.notes, 2));
    }
    out
}

/// One benchmark of both results: the compared statistic of each (the mean unless the
/// question asked another), the verdict with its ratio, why, and the shift in the
/// metric's unit.
fn comparison(base: &ResultDocument, new: &ResultDocument, c: &Comparison) -> String {
    let mut out = String::new();
    let mean = |d: &ResultDocument, name: &str| {
        d.benchmark(name)
            .and_then(|b| compared_value(b, c))
            .map_or("-".to_string(), |(v, unit)| format::value(unit, v))
    };
    let statistic = match c.question {
        plumb_model::Question::Mean => String::new(),
        q => format!("{} ", q.statistic()),
    };
    let _ = writeln!(
        out,
        "  {}\n    {statistic}{} → {}   {}\n    {}",
        style(if c.baseline == c.candidate {
            c.candidate.clone()
        } else {
            format!("{} → {}", c.baseline, c.candidate)
        })
        .bold(),
        mean(base, &c.baseline),
        mean(new, &c.candidate),
        crate::terminal::verdict_words(c),
        style(reason_text(c)).dim()
    );
    if c.hodges_lehmann.is_finite() {
        let unit = base
            .benchmark(&c.baseline)
            .map_or(Unit::Nanoseconds, |b| format::unit_of(b, &c.metric));
        let _ = writeln!(
            out,
            "    {}",
            style(format!(
                "Hodges-Lehmann shift {}{}, Cohen's d {:.2} (d grows as noise shrinks: judge size by the ratio)",
                if c.hodges_lehmann >= 0.0 { "+" } else { "-" },
                format::value(unit, c.hodges_lehmann.abs()),
                c.cohens_d
            ))
            .dim()
        );
    }
    out.push_str(&crate::terminal::explained(c, 4));
    out
}

/// The statistic `c` compared, of one side, with its unit: from the samples, from the
/// harness's summary (the figure of that statistic, where it gave one), or a simulator's
/// instructions per operation.
fn compared_value(b: &plumb_model::Benchmark, c: &Comparison) -> Option<(f64, Unit)> {
    if c.from_summaries == Some(plumb_model::SummaryBasis::SimulatedCounts) {
        let v = b.simulated.as_ref()?.per_op(&c.metric).first().copied()?;
        return Some((v, Unit::Count));
    }
    let value = match b.reported_summary(&c.metric) {
        Some(r) => match c.question {
            plumb_model::Question::Mean => r.mean.or(r.value),
            plumb_model::Question::Typical => r.median,
            _ => None,
        },
        None => c.question.of(&b.analysed(&c.metric)),
    }?;
    Some((value, format::unit_of(b, &c.metric)))
}

/// A load benchmark of both results, percentile by percentile.
pub fn render_load_comparison(l: &LoadComparison) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "  {} (load)", style(l.benchmark()).bold());
    match l {
        LoadComparison::NotCompared { why, .. } => {
            let _ = writeln!(out, "    not compared: {why}");
        }
        LoadComparison::Compared { percentiles, .. } => {
            for r in percentiles {
                let _ = writeln!(
                    out,
                    "    {:<7} {:>12} → {:<12} {}  {}",
                    r.percentile,
                    format::time(r.base),
                    format::time(r.new),
                    verdict_style(r.verdict).apply_to(format!("{:<12}", r.verdict.to_string())),
                    style(percentile_reason_text(r)).dim()
                );
            }
            let judged = percentiles
                .iter()
                .any(|r| r.base_runs > 1 || r.new_runs > 1);
            let basis = if judged {
                "(judged by the runs' own percentiles: their spread is the run-to-run variation; with several runs, values are geometric means)"
            } else {
                "(one run per side: verdicts need repeated runs, plumb load --repeat N)"
            };
            let _ = writeln!(out, "    {}", style(basis).dim());
        }
    }
    out
}
