//! A declared design in words — its traits on one line each, what was estimated said so —
//! followed by its red flags: what `plumb design check` prints, and what a run prints
//! above its table when it was given a workload file.
use crate::terminal::render_diagnostics;
use console::style;
use plumb_model::format::{self, bytes, percent};
use plumb_model::{Arrival, Design, Diagnostic, GeneratorPlace, Mix, SizeDistribution};
use std::fmt::Write as _;

/// The declared traits as `(name, value)` pairs, in the order a reader checks them.
pub fn design_traits(d: &Design) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let mut put = |name, value: Option<String>| {
        if let Some(v) = value {
            out.push((name, v));
        }
    };
    put("preset", d.preset.clone());
    put("keys", d.keys.map(|k| k.to_string()));
    put("mix", d.mix.map(mix_text));
    put("records", d.records.map(grouped));
    put("key size", d.key_size.as_ref().map(size_text));
    put("value size", d.value_size.as_ref().map(size_text));
    put(
        "working set",
        d.working_set_bytes().map(|(b, estimated)| {
            let how = if estimated {
                " (records × record size)"
            } else {
                ""
            };
            format!("{}{how}", bytes(b))
        }),
    );
    put("threads", d.threads.map(|t| t.to_string()));
    put("arrival", d.arrival.map(arrival_text));
    put("latency", d.latency.map(format::time));
    put("durability", d.durability.map(|x| x.to_string()));
    put("state", d.state.map(|s| format!("{s:?}").to_lowercase()));
    put("warm-up", d.warmup.map(format::time));
    put("duration", d.duration.map(format::time));
    put("launches", d.launches.map(|l| l.to_string()));
    put(
        "generator",
        d.generator.map(|g| match g {
            GeneratorPlace::SameMachine => "on the machine under test".to_string(),
            GeneratorPlace::OtherMachine => "on another machine".to_string(),
        }),
    );
    put("question", d.question.map(|q| q.describe()));
    out
}

/// A whole number with thousands separated: 100,000,000.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn mix_text(m: Mix) -> String {
    [
        ("read", m.read),
        ("update", m.update),
        ("insert", m.insert),
        ("scan", m.scan),
        ("read-modify-write", m.read_modify_write),
    ]
    .iter()
    .filter(|(_, share)| *share > 0.0)
    .map(|(op, share)| format!("{} {op}", percent(*share)))
    .collect::<Vec<_>>()
    .join(", ")
}

fn size_text(s: &SizeDistribution) -> String {
    match *s {
        SizeDistribution::Histogram { block, ref counts } => format!(
            "YCSB histogram of {} buckets of {} (mean {})",
            counts.len(),
            bytes(block),
            plumb_model::format::bytes(plumb_model::quantity::ByteSize(s.mean_bytes() as u64))
        ),
        SizeDistribution::Fixed { size } => format!("{} (fixed)", bytes(size)),
        SizeDistribution::Uniform { min, max } => {
            format!("uniform {} – {}", bytes(min), bytes(max))
        }
        SizeDistribution::Zipfian { min, max } => {
            format!(
                "Zipfian {} – {} (the smallest most common)",
                bytes(min),
                bytes(max)
            )
        }
    }
}

fn arrival_text(a: Arrival) -> String {
    match a {
        Arrival::Closed => "closed loop".into(),
        Arrival::Open { rate } => format!("open loop at {}", format::rate(rate.per_second())),
    }
}

/// One design's check: its name, its traits (production's beside), and its red flags or
/// a line saying there are none.
pub fn render_design_check(name: &str, d: &Design, found: &[Diagnostic]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", style(name).bold());
    let production = d
        .production
        .as_deref()
        .map(design_traits)
        .unwrap_or_default();
    let traits = design_traits(d);
    let width = traits.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    for (trait_name, value) in &traits {
        let _ = writeln!(out, "  {trait_name:width$}  {value}");
    }
    if !production.is_empty() {
        let _ = writeln!(out, "  production:");
        for (trait_name, value) in &production {
            let _ = writeln!(out, "    {trait_name:width$}  {value}");
        }
    }
    if found.is_empty() {
        let _ = writeln!(out, "  no red flags in this design");
    } else {
        out.push_str(&render_diagnostics(found, 2));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn says_each_declared_trait_and_what_was_estimated() {
        let d = plumb_model::ycsb_core('a').unwrap();
        let text = console::strip_ansi_codes(&render_design_check("ycsb-a", &d, &[])).to_string();
        assert!(text.contains("scrambled Zipfian (θ = 0.99)"), "{text}");
        assert!(text.contains("50.0% read, 50.0% update"), "{text}");
        assert!(text.contains("999.0 KiB (records × record size)"), "{text}");
        assert!(text.contains("1000 B (fixed)"), "{text}");
        assert!(text.contains("no red flags"), "{text}");
        assert!(text.contains("records      1,000\n"), "{text}");
        assert_eq!(grouped(100_000_000), "100,000,000");
        assert_eq!(grouped(999), "999");
        assert!(
            !text.contains("threads"),
            "undeclared traits are not printed: {text}"
        );
    }
}
