//! In-situ regions: one program's totals, and two builds' side by side.

use plumb_model::format;
use plumb_model::{InSituRegion, ProducerSettings, ResultDocument};
use std::fmt::Write;

fn timer_line(doc: &ResultDocument) -> String {
    match &doc.settings.producer {
        ProducerSettings::InSitu(s) => format!(
            "timed by the {} clock; one timed region costs about {} here, included in each call's time",
            s.clock,
            format::time(s.timer_cost)
        ),
        _ => String::new(),
    }
}

/// One program's regions: calls, total, time per call.
pub fn render_regions(doc: &ResultDocument) -> String {
    let mut out = format!("in-situ regions ({})\n\n", timer_line(doc));
    let _ = writeln!(
        out,
        "  {:<32} {:>12} {:>12} {:>12}",
        "region", "calls", "total", "per call"
    );
    for r in &doc.regions {
        let _ = writeln!(
            out,
            "  {:<32} {:>12} {:>12} {:>12}",
            r.name,
            r.calls,
            format::time(r.total),
            per_call(r)
        );
    }
    out
}

fn per_call(r: &InSituRegion) -> String {
    if r.calls == 0 {
        "-".into()
    } else {
        format::time_or_dash(r.mean())
    }
}

/// Two builds' regions by name: time per call and its ratio, calls. Each side is one
/// total per region, so there is no interval and no verdict: say so.
pub fn render_region_comparison(base: &ResultDocument, new: &ResultDocument) -> String {
    let mut out = String::from("in-situ regions, base → new (time per call)\n\n");
    let _ = writeln!(
        out,
        "  {:<32} {:>12} {:>12} {:>9} {:>20}",
        "region", "base", "new", "new/base", "calls base → new"
    );
    for b in &base.regions {
        let Some(n) = new.regions.iter().find(|n| n.name == b.name) else {
            let _ = writeln!(out, "  {:<32} only in base", b.name);
            continue;
        };
        let mean_ns = |r: &InSituRegion| r.mean().map_or(f64::NAN, |d| d.as_nanos_f64());
        let ratio = mean_ns(n) / mean_ns(b);
        let _ = writeln!(
            out,
            "  {:<32} {:>12} {:>12} {:>9} {:>20}",
            b.name,
            per_call(b),
            per_call(n),
            if ratio.is_finite() {
                format!("×{ratio:.3}")
            } else {
                "-".into()
            },
            format!("{} → {}", b.calls, n.calls)
        );
    }
    for n in new
        .regions
        .iter()
        .filter(|n| !base.regions.iter().any(|b| b.name == n.name))
    {
        let _ = writeln!(out, "  {:<32} only in new", n.name);
    }
    out.push_str("\n  Each side is one total per region: no interval, no verdict. For one, time the builds with plumb run or the harness, or dump several runs of each.\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(regions: &[(&str, u64, f64)]) -> ResultDocument {
        let mut d = crate::fixture::document();
        d.regions = regions
            .iter()
            .map(|(name, calls, total_ns)| InSituRegion {
                name: name.to_string(),
                calls: *calls,
                total: plumb_model::quantity::Duration::from_nanos_f64(*total_ns),
            })
            .collect();
        d
    }

    #[test]
    fn two_builds_by_region() {
        let base = doc(&[("parse", 100, 1000.0), ("gone", 1, 5.0)]);
        let new = doc(&[("parse", 100, 500.0), ("added", 2, 4.0)]);
        let text = render_region_comparison(&base, &new);
        assert!(text.contains("×0.500"), "{text}");
        assert!(text.contains("100 → 100"));
        assert!(text.contains("gone") && text.contains("only in base"));
        assert!(text.contains("added") && text.contains("only in new"));
        assert!(text.contains("no verdict"));
        assert!(render_regions(&base).contains("parse"));
    }
}
