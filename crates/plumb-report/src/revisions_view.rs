//! The rounds of a sequential verdict in a report — the design, each look's ratio and
//! repeated interval, why the rounds ended (`plumb run --until-settled`, `plumb revs`) —
//! and `plumb revs`' own part: the two revisions and their builds; for the terminal and
//! Markdown.
use plumb_model::format::{factor, time};
use plumb_model::{Ending, Look, Revision, Revisions, SequentialRounds, Verdict};
use std::fmt::Write;

/// One side as a line: its role, name, commit and how its build went.
fn side_line(role: &str, r: &Revision) -> String {
    let id = match &r.commit {
        Some(c) => c[..c.len().min(10)].to_string(),
        None => format!("working tree {}", &r.tree[..r.tree.len().min(10)]),
    };
    let build = match (r.build_reused, r.build_time) {
        (true, _) => "build reused".to_string(),
        (false, Some(t)) => format!("built in {}", time(t)),
        (false, None) => "not built".to_string(),
    };
    format!("{role} {} ({id}): {build}, in {}", r.name, r.dir)
}

/// How the design looked, in one sentence.
fn design_line(r: &SequentialRounds) -> String {
    let d = &r.design;
    let looks = match d.looks.as_slice() {
        [] => String::new(),
        [only] => format!("{only}"),
        [first, second, .., last] => format!("{first}, {second}, …, {last}"),
        [first, last] => format!("{first}, {last}"),
    };
    let spending = match d.spending.strip_prefix("kim-demets rho=") {
        Some(rho) => format!("Kim–DeMets ρ = {rho} spending"),
        None => d.spending.clone(),
    };
    let pairing = match d.pairing {
        plumb_model::Pairing::Interleaved => "in random order".to_string(),
        plumb_model::Pairing::Duet { cpus: [a, b] } => {
            format!("A and B at once on CPUs {a} and {b} (a duet)")
        }
    };
    let note = d
        .pairing_note
        .as_ref()
        .map(|n| format!(" ({n})"))
        .unwrap_or_default();
    format!(
        "{} run{} of each side per round, {pairing}{note}; looks at rounds {looks} ({spending} of α = {})",
        d.runs_per_round,
        if d.runs_per_round == 1 { "" } else { "s" },
        (d.alpha * 1e9).round() / 1e9
    )
}

fn look_words(l: &Look) -> &'static str {
    match l.verdict {
        Verdict::Slower => "slower",
        Verdict::Faster => "faster",
        Verdict::Equivalent => "equivalent",
        Verdict::Inconclusive => "not settled",
    }
}

/// Why the rounds ended, when not by a settled look.
fn ending_line(r: &SequentialRounds) -> Option<String> {
    let max = r.design.looks.last().copied().unwrap_or(0);
    match r.ended {
        Ending::Settled => None,
        Ending::MaxRounds => Some(format!(
            "unknown: not settled at the cap of {max} rounds (--max-rounds); a quieter machine, more runs per round or a larger SESOI may settle it"
        )),
        Ending::MaxTime => Some(format!(
            "unknown: --max-time{} passed before a look settled it",
            r.design
                .max_time
                .map(|t| format!(" ({})", time(t)))
                .unwrap_or_default()
        )),
        Ending::Stopped => Some("stopped before the verdict settled".to_string()),
    }
}

/// The block for the terminal.
pub fn revisions_text(r: &Revisions) -> String {
    let mut out = String::from("\nRevisions:\n");
    let _ = writeln!(out, "  {}", side_line("A", &r.base));
    let _ = writeln!(out, "  {}", side_line("B", &r.new));
    out.push_str(&looks_text(&r.rounds));
    out
}

/// The rounds of `plumb run --until-settled`, for the terminal.
pub fn rounds_text(r: &SequentialRounds) -> String {
    format!("\nRounds until settled:\n{}", looks_text(r))
}

/// The design, every look and why the rounds ended, for the terminal.
fn looks_text(r: &SequentialRounds) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "  {}", design_line(r));
    let look_line = |out: &mut String, l: &Look| {
        let _ = writeln!(
            out,
            "    round {:>3}: B/A {}× [{}, {}]  {}",
            l.rounds,
            factor(l.ratio),
            factor(l.interval.lo),
            factor(l.interval.hi),
            look_words(l)
        );
    };
    for l in &r.looks {
        look_line(&mut out, l);
    }
    for b in &r.benchmarks {
        let _ = writeln!(
            out,
            "  {} (α over {} benchmarks):",
            b.name,
            r.benchmarks.len()
        );
        for l in &b.looks {
            look_line(&mut out, l);
        }
    }
    if let Some(line) = ending_line(r) {
        let _ = writeln!(out, "  {line}");
    }
    out
}

/// The block for Markdown: the sides as a list, the looks as a table.
pub fn revisions_markdown(r: &Revisions) -> String {
    let mut out = String::from("\n**Revisions**\n\n");
    let _ = writeln!(out, "- {}", side_line("A", &r.base));
    let _ = writeln!(out, "- {}", side_line("B", &r.new));
    out.push_str(&looks_markdown(&r.rounds));
    out
}

/// The rounds of `plumb run --until-settled`, for Markdown.
pub fn rounds_markdown(r: &SequentialRounds) -> String {
    format!("\n**Rounds until settled**\n\n{}", looks_markdown(r))
}

/// The design and ending as a list, the looks as a table.
fn looks_markdown(r: &SequentialRounds) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "- {}", design_line(r));
    if let Some(line) = ending_line(r) {
        let _ = writeln!(out, "- **{line}**");
    }
    let all: Vec<(&str, &Look)> = r
        .looks
        .iter()
        .map(|l| ("", l))
        .chain(
            r.benchmarks
                .iter()
                .flat_map(|b| b.looks.iter().map(|l| (b.name.as_str(), l))),
        )
        .collect();
    // A benchmark column only for in-process benchmarks (a command has one list of looks).
    let named = !r.benchmarks.is_empty();
    if !all.is_empty() {
        out.push_str(if named {
            "\n| Benchmark | Round | B/A | Repeated CI | Look |\n|:---|---:|---:|:---|:---|\n"
        } else {
            "\n| Round | B/A | Repeated CI | Look |\n|---:|---:|:---|:---|\n"
        });
        for (name, l) in all {
            let name = if named {
                format!("| {} ", name.replace('|', "\\|"))
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "{name}| {} | {}× | [{}, {}] | {} |",
                l.rounds,
                factor(l.ratio),
                factor(l.interval.lo),
                factor(l.interval.hi),
                look_words(l)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{Interval, SequentialDesignRecord};

    fn revisions() -> Revisions {
        let side = |name: &str, commit: &str, reused: bool| Revision {
            name: name.into(),
            commit: Some(commit.into()),
            tree: "f".repeat(40),
            working_tree: false,
            dir: ".plumb/revs/0123456789abcdef/wt".into(),
            build_time: (!reused).then(|| std::time::Duration::from_millis(1500).into()),
            build_reused: reused,
        };
        Revisions {
            base: side("main", &"a".repeat(40), true),
            new: side("HEAD", &"b".repeat(40), false),
            build: Some("make".into()),
            rounds: SequentialRounds {
                design: SequentialDesignRecord {
                    runs_per_round: 4,
                    looks: vec![10, 15, 20, 60],
                    z: vec![4.0, 3.9, 3.8, 3.5],
                    alpha: 0.001,
                    spending: "kim-demets rho=2".into(),
                    sesoi: 0.02,
                    max_time: None,
                    question: plumb_model::Question::Typical,
                    pairing: plumb_model::Pairing::Interleaved,
                    pairing_note: None,
                },
                looks: vec![
                    Look {
                        rounds: 10,
                        ratio: 1.05,
                        interval: Interval { lo: 1.01, hi: 1.09 },
                        verdict: Verdict::Inconclusive,
                    },
                    Look {
                        rounds: 15,
                        ratio: 1.05,
                        interval: Interval { lo: 1.03, hi: 1.07 },
                        verdict: Verdict::Slower,
                    },
                ],
                benchmarks: Vec::new(),
                ended: Ending::Settled,
            },
        }
    }

    #[test]
    fn says_each_side_the_design_and_every_look() {
        let t = revisions_text(&revisions());
        assert!(t.contains("A main (aaaaaaaaaa): build reused"), "{t}");
        assert!(t.contains("B HEAD (bbbbbbbbbb): built in 1.500 s"), "{t}");
        assert!(t.contains("4 runs of each side per round"), "{t}");
        assert!(t.contains("looks at rounds 10, 15, …, 60"), "{t}");
        assert!(
            t.contains("round  15: B/A 1.050× [1.030, 1.070]  slower"),
            "{t}"
        );
        assert!(!t.contains("unknown"), "{t}");
        let mut capped = revisions();
        capped.rounds.ended = Ending::MaxRounds;
        assert!(
            revisions_markdown(&capped).contains("**unknown: not settled at the cap of 60 rounds")
        );
        assert!(
            revisions_markdown(&capped).contains("| 10 | 1.050× | [1.010, 1.090] | not settled |")
        );
    }
}
