//! `plumb history changes`: every series' change points (plumb-changes' `analyse`) said as a
//! table or Markdown, each with its commits, levels, change, p-value and status;
//! `--fail-on new-change` gates CI.
use crate::args::{FailOn, HistoryChangesArgs};
use crate::exit::{self, CliError, Outcome};
use crate::history_out::{at, unit_of};
use plumb_changes::{analyse, confirm_all, Analysed, Found, Method, Side};
use plumb_history::{ChangeStatus, HistoryStore, StoredChange};
use plumb_model::format;
use plumb_stats::{ChangeParams, OtavaParams};
use std::fmt::Write;

pub fn run(store: &mut dyn HistoryStore, args: &HistoryChangesArgs) -> Result<Outcome, CliError> {
    let method = method(args)?;
    let o = &args.confirming;
    if !args.confirm && (o.build.is_some() || !o.command.is_empty() || o.trust_stored_commands) {
        return Err(CliError::msg(
            "--build, --trust-stored-commands and a command after -- are for --confirm".into(),
        ));
    }
    let analysed = analyse(store, method)?;
    let text = if args.markdown {
        markdown(&analysed, args, method)
    } else {
        table(&analysed, method)
    };
    exit::print_stdout(&text)?;
    if args.confirm {
        let (code, said) = crate::history_confirm::confirming(&o.request(args.sesoi), |c| {
            confirm_all(store, &analysed, c, |_, s| {
                s.new && s.status == ChangeStatus::Candidate
            })
        })?;
        // The summary says what the re-runs decided too (stderr said it as it happened).
        if args.markdown {
            let mut text = String::from("\n### Re-run of each new change point (plumb revs)\n\n");
            if said.is_empty() {
                text.push_str("No new change point to re-run.\n");
            }
            for line in said {
                let _ = writeln!(text, "- {}", line.replace('|', "\\|"));
            }
            exit::print_stdout(&text)?;
        }
        return Ok(code);
    }
    let failing = analysed
        .iter()
        .flat_map(|a| &a.changes)
        .filter(|(c, s)| fails(c, s, args))
        .count();
    if args.fail_on == Some(FailOn::NewChange) && failing > 0 {
        eprintln!(
            "plumb: {failing} new change point(s) slower by more than the SESOI ({})",
            format::percent(args.sesoi.get())
        );
        return Ok(Outcome::GateFailed);
    }
    Ok(Outcome::Done)
}

/// The method and its parameters, checked.
fn method(args: &HistoryChangesArgs) -> Result<Method, CliError> {
    let alpha = args
        .alpha
        .unwrap_or(if args.otava_parity { 0.001 } else { 0.005 });
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(CliError::msg(format!(
            "--alpha {alpha}: must be between 0 and 1"
        )));
    }
    if args.window < 6 {
        return Err(CliError::msg(format!(
            "--window {}: must be at least 6 points",
            args.window
        )));
    }
    if !(args.min_magnitude >= 0.0 && args.min_magnitude.is_finite()) {
        return Err(CliError::msg(format!(
            "--min-magnitude {}: must be 0 or more",
            args.min_magnitude
        )));
    }
    Ok(if args.otava_parity {
        Method::Otava(OtavaParams {
            window: args.window,
            max_p: alpha,
            min_magnitude: args.min_magnitude,
        })
    } else {
        Method::Plumb(ChangeParams {
            window: args.window,
            alpha,
            min_magnitude: args.min_magnitude,
            ..ChangeParams::default()
        })
    })
}

/// A new, unacknowledged change to a slower level beyond the SESOI.
fn fails(c: &Found, s: &StoredChange, args: &HistoryChangesArgs) -> bool {
    s.new
        && matches!(s.status, ChangeStatus::Candidate | ChangeStatus::Confirmed)
        && c.relative() > args.sesoi.get()
}

/// What the analysis was, in a line.
fn method_said(method: Method) -> String {
    match method {
        Method::Plumb(p) => format!(
            "plumb's method: α = {} across all series, corrected for the search; window {}",
            p.alpha, p.window
        ),
        Method::Otava(p) => format!(
            "Otava 0.8.0's method (parity): p < {}, window {}, magnitude > {}",
            p.max_p, p.window, p.min_magnitude
        ),
    }
}

/// One change in words: where, from what to what, by how much, how sure, its status.
fn said(a: &Analysed, c: &Found, s: &StoredChange) -> [String; 6] {
    let unit = unit_of(&a.points);
    let level = |l: &Side| match l.interval {
        Some(i) => format!(
            "{} [{}, {}] ({} points)",
            format::value(unit, l.mean),
            format::value(unit, i.lo),
            format::value(unit, i.hi),
            l.n
        ),
        None => format!("{} ({} points)", format::value(unit, l.mean), l.n),
    };
    let status = format!("{}{}", s.status.name(), if s.new { ", new" } else { "" });
    [
        format!("{}@{}", a.series.id, s.run),
        format!("{}..{}", at(&a.points, c.index - 1), at(&a.points, c.index)),
        format!("{} → {}", level(&c.before), level(&c.after)),
        format::signed_percent(c.relative()),
        format!("{:.1e}", c.p),
        status,
    ]
}

fn table(analysed: &[Analysed], method: Method) -> String {
    let mut out = String::new();
    let total: usize = analysed.iter().map(|a| a.changes.len()).sum();
    let _ = writeln!(
        out,
        "{} series, {} change point{} ({})",
        analysed.len(),
        total,
        if total == 1 { "" } else { "s" },
        method_said(method)
    );
    for a in analysed.iter().filter(|a| !a.changes.is_empty()) {
        let _ = writeln!(out, "\n{}  [{}]", a.series.name(), a.series.key.machine.0);
        for (c, s) in &a.changes {
            let [id, range, levels, rel, p, status] = said(a, c, s);
            let _ = writeln!(
                out,
                "  {id:<8} {range:<23} {levels}  {rel:>7}  p={p}  {status}"
            );
        }
    }
    out
}

fn markdown(analysed: &[Analysed], args: &HistoryChangesArgs, method: Method) -> String {
    let mut out = String::from("## plumb history: change points\n\n");
    let rows: Vec<_> = analysed
        .iter()
        .flat_map(|a| a.changes.iter().map(move |(c, s)| (a, c, s)))
        .collect();
    if rows.is_empty() {
        let _ = writeln!(
            out,
            "No change point in {} series ({}).",
            analysed.len(),
            method_said(method)
        );
        return out;
    }
    let _ = writeln!(
        out,
        "{} change point(s) in {} series ({}). 🔴: new, slower by more than the SESOI ({}).\n",
        rows.len(),
        analysed.len(),
        method_said(method),
        format::percent(args.sesoi.get())
    );
    out.push_str("| | series | change | commits | before → after | change | p | status |\n|---|---|---|---|---|---|---|---|\n");
    for (a, c, s) in rows {
        let [id, range, levels, rel, p, status] = said(a, c, s);
        let mark = if fails(c, s, args) { "🔴" } else { "" };
        let _ = writeln!(
            out,
            "| {mark} | {} | `{id}` | `{range}` | {levels} | {rel} | {p} | {status} |",
            a.series.name().replace('|', "\\|")
        );
    }
    out
}
