//! `plumb history`: open the store, and its subcommands that keep and list (`add`, `list`,
//! `ack`); finding change points is `history_changes.rs`. `Saver` keeps a result of
//! `plumb run` or `plumb load` given `--save`.
use crate::args::{HistoryArgs, HistoryCommand};
use crate::exit::{self, CliError, Outcome};
use crate::store::{location, open, refuse_store, to_read};
use crate::{history_changes, history_show, results_in};
use plumb_history::git as history_git;
use plumb_history::{kept_as, ChangeStatus, Commits};
use plumb_model::ResultDocument;

pub fn run(args: HistoryArgs) -> Result<Outcome, CliError> {
    // Only `add` makes a store; every other subcommand reads one that exists.
    let location = match &args.command {
        HistoryCommand::Add(_) => location(args.history)?,
        _ => to_read(args.history)?,
    };
    match args.command {
        HistoryCommand::Add(a) => {
            // Every file is read and its commit found before the store is touched: one
            // bad file or unknown commit adds nothing.
            let wanted = plumb_history::files_to_add(&a.results, a.manifest.as_deref())?;
            let docs = (wanted.iter())
                .map(|(p, _)| results_in::load(p, a.import.format))
                .collect::<Result<Vec<_>, _>>()?;
            let mut commits = Commits::new(&std::env::current_dir()?);
            let lines = wanted.iter().map(|(_, line)| line.as_deref());
            let at = commits.of_each(lines.zip(&docs), a.commit.as_deref())?;
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
