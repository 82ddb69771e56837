//! `plumb history`: open the store, and its subcommands that keep and list (`add`, `list`,
//! `ack`); finding change points is `history_changes.rs`. `Saver` keeps a result of
//! `plumb run` or `plumb load` given `--save`.
use crate::args::{HistoryArgs, HistoryCommand};
use crate::exit::{self, CliError, Outcome};
use crate::store::{location, open, refuse_store, to_read};
use crate::{history_changes, history_show, results_in};
use plumb_history::git as history_git;
use plumb_history::{kept_as, ChangeStatus, CommitFrom, Commits};
use plumb_model::ResultDocument;
use std::path::PathBuf;

pub fn run(args: HistoryArgs) -> Result<Outcome, CliError> {
    // Only `add` makes a store; every other subcommand reads one that exists.
    let location = match &args.command {
        HistoryCommand::Add(_) => location(args.history)?,
        _ => to_read(args.history)?,
    };
    match args.command {
        HistoryCommand::Add(a) => {
            // Each file with the commit its manifest line names, if any.
            let mut wanted: Vec<(PathBuf, Option<String>)> =
                a.results.iter().map(|p| (p.clone(), None)).collect();
            if let Some(m) = &a.manifest {
                let lines = plumb_history::read_manifest(m)?;
                wanted.extend(lines.into_iter().map(|(c, f)| (f, Some(c))));
            }
            // Every file is read and its commit found before the store is touched: one
            // bad file or unknown commit adds nothing.
            let docs = (wanted.iter())
                .map(|(p, _)| results_in::load(p, a.import.format))
                .collect::<Result<Vec<_>, _>>()?;
            let mut commits = Commits::new(&std::env::current_dir()?);
            let mut at = Vec::with_capacity(docs.len());
            for (doc, (_, line)) in docs.iter().zip(&wanted) {
                let asked = match line {
                    Some(c) => Some((c.as_str(), CommitFrom::Manifest)),
                    None => (a.commit.as_deref()).map(|c| (c, CommitFrom::Given)),
                };
                at.push(commits.of(asked, doc.commit.as_ref())?);
            }
            let mut store = open(&location)?;
            for ((doc, (file, _)), (commit, from)) in docs.iter().zip(&wanted).zip(&at) {
                let added = store.add(doc, commit.as_ref()).map_err(|e| {
                    let (file, store) = (file.display(), location.shown());
                    CliError::msg(format!("{file}: not kept: {store}: {e}"))
                })?;
                let said = if added.new {
                    kept_as(added.run, commit.as_ref(), &location) + from.said()
                } else {
                    let at = (commit.as_ref()).map_or(String::new(), |c| {
                        format!(" at {}", history_git::short(&c.sha))
                    });
                    format!("kept before as run {}{at}: not kept again", added.run)
                };
                eprintln!("plumb: {}: {said}", file.display());
                if let Some(note) = outside_series(doc) {
                    eprintln!("plumb: note: {}: {note}", file.display());
                }
            }
            Ok(Outcome::Done)
        }
        HistoryCommand::List => {
            let records = open(&location)?.records()?;
            exit::print_stdout(&plumb_report::history::render_history_list(&records))?;
            Ok(Outcome::Done)
        }
        HistoryCommand::Show(a) => history_show::show(open(&location)?.as_mut(), &a),
        HistoryCommand::Export(a) => {
            if let Some(out) = &a.output {
                refuse_store("--output", &location, out)?;
            }
            history_show::export(open(&location)?.as_mut(), &a)
        }
        HistoryCommand::Changes(a) => history_changes::run(open(&location)?.as_mut(), &a),
        HistoryCommand::Confirm(a) => crate::history_confirm::run(open(&location)?.as_mut(), &a),
        HistoryCommand::Ack(a) => {
            let (series, run) = a.change;
            let mut store = open(&location)?;
            store.set_status(series, run, ChangeStatus::Acknowledged, a.note.as_deref())?;
            eprintln!("plumb: change {series}@{run} acknowledged");
            Ok(Outcome::Done)
        }
    }
}

/// What is said of the imported benchmarks that give no point to a series.
fn outside_series(doc: &ResultDocument) -> Option<String> {
    let names = plumb_history::outside_series(doc);
    (!names.is_empty()).then(|| {
        format!(
            "{} benchmark(s) kept with the run but in no series: their harness's summary gives no mean and median ({})",
            names.len(),
            names.join(", ")
        )
    })
}
