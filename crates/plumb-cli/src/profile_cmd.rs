//! `plumb profile`: perf around a command or one benchmark's loop; `--diff` of two saved
//! profiles.

use crate::args::ProfileArgs;
use crate::exit::{self, CliError, Outcome};
use crate::export;
use crate::session;
use plumb_model::{Profile, ResultDocument};
use plumb_profile::{PerfTool, Sampler, Taken};
use plumb_report::targets::OutputDir as Outputs;
use std::ffi::OsString;

pub fn run(a: ProfileArgs) -> Result<Outcome, CliError> {
    if let Some(files) = &a.diff {
        return crate::profile_diff_cmd::run(&files[0], &files[1], &a.out, a.top);
    }
    let outputs = Outputs::prepare("--out", &a.out)?;
    // --report is a copy made at the end: its path is checked before perf runs, so a bad
    // one cannot cost the profile (issue 24, defect 9).
    export::check(&export::targets(&[(
        "--report",
        &a.report,
        plumb_report::Format::Html,
    )]))?;
    let perf = PerfTool::find()?;
    let environment = plumb_env::collect();
    let asked = a.what.asked(outputs.path().join("perf.data"));
    let planned = plumb_profile::plan(&perf, &asked, &environment)?;
    if planned.binary.stripped {
        eprintln!(
            "plumb: note: {} has no symbols (stripped): its functions will be shown as addresses",
            planned.binary.path.display()
        );
    }
    let (request, settings) = (planned.request, planned.settings);
    eprintln!(
        "profiling {}: {} samples at {} Hz, {} (Ctrl-C stops and keeps what was sampled)",
        request.name,
        settings.event,
        settings.frequency_hz,
        settings.call_graph.label()
    );
    let session = session::stop_on_signals()?;
    let mut taken = plumb_profile::take(&perf, &request, &session.stop)?;
    extras(&a, &perf, &outputs, &mut taken.profile);
    let doc = plumb_profile::document(environment, settings, &taken, &|| session.signal_name());
    finish(&a, &outputs, &doc, &taken, &request.sampler, &session)
}

/// Annotations and allocation sites, when asked for. A failure of either is a warning:
/// the profile itself is taken.
fn extras(a: &ProfileArgs, perf: &PerfTool, outputs: &Outputs, p: &mut Profile) {
    for function in &a.annotate {
        match plumb_profile::annotate::annotate(perf, &outputs.path().join("perf.data"), function) {
            Ok(annotation) => p.annotations.push(annotation),
            Err(e) => eprintln!("plumb: warning: --annotate {function}: {e}"),
        }
    }
    if a.alloc {
        eprintln!("counting allocation sites under valgrind's DHAT …");
        match allocations(a, outputs) {
            Ok(sites) => p.allocations = Some(sites),
            Err(e) => eprintln!("plumb: warning: --alloc: {}", e.message()),
        }
    }
}

/// A command's allocations whole; a benchmark's per operation.
fn allocations(
    a: &ProfileArgs,
    outputs: &Outputs,
) -> Result<plumb_model::AllocationProfile, CliError> {
    let argv: Vec<OsString> = a.what.command.iter().map(OsString::from).collect();
    Ok(match &a.what.bench {
        None => plumb_profile::dhat::command_sites(&argv, outputs.path())?,
        Some(bench) => plumb_profile::dhat::bench_sites(&argv, bench, outputs.path())?,
    })
}

/// Writes, prints, and says how it went in the exit code.
fn finish(
    a: &ProfileArgs,
    outputs: &Outputs,
    doc: &ResultDocument,
    taken: &Taken,
    sampler: &Sampler,
    session: &session::Session,
) -> Result<Outcome, CliError> {
    let profile = &doc.profiles[0];
    let settings = doc.settings.producer.profile();
    let files = plumb_report::flamegraph::profile_files(doc, a.top)?;
    let mut written = outputs.write_files(&files)?;
    // The page is already in the output directory: copied, not drawn again.
    if let Some(path) = &a.report {
        std::fs::copy(
            outputs.path().join(plumb_report::flamegraph::PROFILE_PAGE),
            path,
        )
        .map_err(|e| CliError::msg(format!("cannot write {}: {e}", path.display())))?;
        written.push(path.clone());
    }
    let mut text = plumb_report::render_profile_with_details(profile, settings, a.top);
    text.push_str(&crate::export::written_lines(&written));
    exit::print_stdout(&text)?;
    if taken.interrupted {
        eprintln!(
            "plumb: stopped by {}: the profile of what ran until then is written",
            session.signal_name()
        );
        return Ok(session.stopped());
    }
    if profile.samples == 0 {
        return Err(CliError::msg(format!(
            "no samples: {}",
            plumb_profile::why_no_samples(taken, sampler)
        )));
    }
    match profile.exit {
        Some(e) if !e.success() && !a.ignore_failure => Err(CliError::msg(
            "the command failed (see the note above); the profile is written; --ignore-failure to exit 0".into(),
        )),
        _ => Ok(Outcome::Done),
    }
}
