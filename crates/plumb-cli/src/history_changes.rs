//! `plumb history changes`: every series' change points (plumb-changes' `analyse`) said as a
//! table or Markdown by plumb-report's history views, each with its commits, levels,
//! change, p-value and status as its record keeps them; `--fail-on new-change` gates CI.
use crate::args::{FailOn, HistoryChangesArgs};
use crate::exit::{self, CliError, Outcome};
use plumb_changes::{analyse, confirm_all, fails_gate, Method};
use plumb_history::{ChangeStatus, HistoryStore};
use plumb_model::format;
use plumb_report::history::{render_changes, render_changes_markdown};
use std::fmt::Write;

pub fn run(store: &mut dyn HistoryStore, args: &HistoryChangesArgs) -> Result<Outcome, CliError> {
    let method = Method::asked(
        args.otava_parity,
        args.alpha,
        args.window,
        args.min_magnitude,
    )?;
    let o = &args.confirming;
    if !args.confirm && (o.build.is_some() || !o.command.is_empty() || o.trust_stored_commands) {
        return Err(CliError::msg(
            "--build, --trust-stored-commands and a command after -- are for --confirm".into(),
        ));
    }
    let analysed = analyse(store, method)?;
    let method_said = method.to_string();
    let fails = |c: &plumb_history::StoredChange| fails_gate(c, o.sesoi.get());
    let text = if args.markdown {
        render_changes_markdown(&analysed, &method_said, o.sesoi, &fails)
    } else {
        render_changes(&analysed, &method_said)
    };
    exit::print_stdout(&text)?;
    if args.confirm {
        let (code, said) = crate::history_confirm::confirming(o, |c| {
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
        .filter(|c| fails(c))
        .count();
    if args.fail_on == Some(FailOn::NewChange) && failing > 0 {
        eprintln!(
            "plumb: {failing} new change point(s) slower by more than the SESOI ({})",
            format::percent(o.sesoi.get())
        );
        return Ok(Outcome::GateFailed);
    }
    Ok(Outcome::Done)
}
