//! The `plumb coordinate` subcommand: waits for N agents (`plumb load ... --coordinator`),
//! gives them one start, follows them live, and writes their merged result (each
//! agent's own beside it), its gates evaluated on the merged data.
use crate::args::CoordinateArgs;
use crate::exit::{self, CliError, Outcome};
use crate::export;
use plumb_load::agents::coordinator::coordinate;
use plumb_loadtest::coordinated::{merged, part_path, Coordinated};
use plumb_report::targets::ExportTarget;
use plumb_report::Format;
use std::net::TcpListener;

pub fn run(a: CoordinateArgs) -> Result<Outcome, CliError> {
    let c = &a.coordinator;
    let token = (c.token).token(std::env::var("PLUMB_TOKEN").ok(), &mut exit::say)?;
    let merged_out = [ExportTarget::new(
        "--output",
        a.output.clone(),
        Format::Json,
    )];
    let parts: Vec<ExportTarget> = (0..c.agents)
        .map(|i| ExportTarget::new("--output", part_path(&a.output, i), Format::Json))
        .collect();
    export::check(&merged_out)?;
    export::check(&parts)?;
    let listener = TcpListener::bind(&c.listen)
        .map_err(|e| CliError::msg(format!("cannot listen on {}: {e}", c.listen)))?;
    let listen = listener
        .local_addr()
        .map_or(c.listen.clone(), |s| s.to_string());
    eprintln!(
        "plumb: waiting for {} agent{} on {listen} (plumb load ... --agents {} --coordinator {listen})",
        c.agents,
        if c.agents == 1 { "" } else { "s" },
        c.agents
    );
    let session = crate::session::stop_on_signals()?;
    let opts = c.coordinator();
    let mut view = plumb_load::agents::live::View::new(c.agents);
    let outcome = coordinate(listener, token, &opts, &session.stop, &mut |n| {
        view.notice(n)
    });
    view.finish();
    let stopped_by =
        (session.stop.load(std::sync::atomic::Ordering::Relaxed)).then(|| session.signal_name());
    let test = Coordinated {
        output: &a.output,
        count: c.agents,
        listen: &listen,
        stopped_by: stopped_by.clone(),
    };
    let made =
        (outcome.map_err(|e| CliError::msg(e.to_string()))).and_then(|o| Ok(merged(&test, &o)?));
    let (doc, text) = match (made, stopped_by) {
        (Ok(made), _) => made,
        // Stopped by a signal: what could not be made is said, and the exit is the
        // signal's (128 + N), not an error's; the agents keep their own results.
        (Err(e), Some(signal)) => {
            eprintln!("plumb: stopped by {signal}: {}; each agent keeps its own result (its --export-json), and plumb merge makes the whole of them", e.message());
            return Ok(session.stopped());
        }
        (Err(e), None) => return Err(e),
    };
    export::write_all(&merged_out, &doc)?;
    exit::print_stdout(&text)?;
    Ok(session.outcome_of(plumb_loadtest::ended(&doc, false)))
}
