//! The `plumb revs` subcommand: two revisions of the repository plumb stands in, each
//! built in its own worktree, timed interleaved until the sequential verdict settles;
//! the report, the exports, and the exit code (1 when B is slower beyond the SESOI).
use crate::args::RevsArgs;
use crate::exit::say;
use crate::exit::{CliError, Outcome};
use crate::export;
use crate::progress::Bar;
use crate::session::Session;
use plumb_changes::Request;
use plumb_model::RunStatus;
use plumb_report::{render_terminal_at, Detail};
use plumb_revs::{build_side, is_harness, NotBuilt, Repo, Side};

pub fn run(a: RevsArgs) -> Result<Outcome, CliError> {
    let targets = export::targets_of(&a.exports);
    export::check(&targets)?;
    let mut request = request(&a);
    request.check_question()?;
    let repo = Repo::discover(&std::env::current_dir()?)?;
    let (base, new) = repo.sides(&a.base, a.new.as_deref(), a.allow_dirty, &mut say)?;
    if base.tree == new.tree {
        eprintln!(
            "plumb: {} ({}) and {} ({}) have the same tree {}: nothing to compare",
            base.name,
            base.short(),
            new.name,
            new.short(),
            &base.tree[..10]
        );
        return Ok(Outcome::Done);
    }
    let session = crate::session::stop_on_signals()?;
    let build = repo.build_command(a.build.as_deref(), &mut say)?;
    let mut sides = Vec::new();
    for rev in [&base, &new] {
        match build_side(&repo, rev, build.as_deref(), &session.stop, &mut say)? {
            Ok(side) => sides.push(side),
            Err(NotBuilt::Failed(message)) => return Err(CliError::msg(message)),
            Err(NotBuilt::Interrupted) => {
                eprintln!(
                    "plumb: stopped by {} during the build of {}: its worktree is kept, and the next run builds on in it",
                    session.signal_name(),
                    rev.name
                );
                return Ok(session.stopped());
            }
        }
    }
    let sides: [Side; 2] = sides
        .try_into()
        .map_err(|_| CliError::msg("two sides".into()))?;
    request.measure.build = build;
    let measured = measure(&sides, &a, request, &session)?;
    let Some(mut doc) = measured else {
        eprintln!(
            "plumb: stopped by {} before the first round: nothing was measured",
            session.signal_name()
        );
        return Ok(session.stopped());
    };
    if let RunStatus::Interrupted { signal } = &mut doc.status {
        *signal = Some(session.signal_name());
    }
    export::save_early(&targets, &doc)?;
    if let RunStatus::Failed { message } = &doc.status {
        eprintln!("plumb: error: {message}");
    }
    let report = render_terminal_at(&doc, Detail::verbose(a.verbose));
    let printed = export::print_report(&targets, &report);
    export::write_all(&targets, &doc)?;
    printed?;
    let slower = doc.gates_fail(&a.gate.gates)?;
    Ok(match doc.status {
        RunStatus::Interrupted { .. } => session.stopped(),
        RunStatus::Failed { .. } => Outcome::Failed,
        RunStatus::Complete if slower => Outcome::GateFailed,
        RunStatus::Complete => Outcome::Done,
    })
}

/// The request the options make: the rounds, the command (or harness), the verdict's terms.
fn request(a: &RevsArgs) -> Request {
    let mut r = Request::new(
        &a.rounds,
        plumb_command::join_words(&a.command),
        (a.confidence, a.sesoi),
        None,
    );
    r.measure.prepare = a.prepare.clone();
    r.measure.seed = a.seed.unwrap_or_else(plumb_command::options::clock_seed);
    r.question = a.question;
    r.harness = (a.harness || is_harness(&a.command)).then(|| a.command.clone());
    r
}

/// The two sides measured (plumb-changes' `measure`) on the machine read just before,
/// which with --counters (or --gate cycles) is also what the counting is planned
/// against; `None` when stopped before the first round.
fn measure(
    sides: &[Side; 2],
    a: &RevsArgs,
    mut r: Request,
    session: &Session,
) -> Result<Option<plumb_model::ResultDocument>, CliError> {
    let environment = plumb_env::collect();
    let cycles = a.gate.gates.contains(&plumb_model::Gate::Cycles);
    if let Some(how) = plumb_report::commands_counting(&a.counting, &environment, cycles)? {
        for line in &how.notices {
            say(line.clone());
        }
        r.measure.counting = Some(how);
    }
    let mut bar = Bar::new(2, !a.no_progress);
    let measured =
        plumb_changes::measure(sides, &r, environment, (&session.stop, &mut bar), &mut say);
    bar.finish();
    Ok(measured?)
}
