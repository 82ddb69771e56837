//! `plumb profile`: perf around a command or one benchmark's loop; `--diff` of two saved
//! profiles.

use crate::args::{CallGraphArg, ProfileArgs};
use crate::exit::{self, CliError, Outcome};
use crate::export;
use crate::profile_out::{self, Outputs};
use crate::session;
use plumb_model::{
    CallGraph, Environment, Invocation, ProducerSettings, Profile, ProfileSettings, ResultDocument,
    RunStatus, Settings,
};
use plumb_profile::{binary, PerfTool, Request, Sampler, Taken};
use std::ffi::OsString;
use std::path::Path;

pub fn run(a: ProfileArgs) -> Result<Outcome, CliError> {
    if let Some(files) = &a.diff {
        return crate::profile_diff_cmd::run(&files[0], &files[1], &a.out, a.top);
    }
    let Some(program) = a.command.first() else {
        return Err(CliError::msg(
            "give the command to profile after `--`: plumb profile -- ./prog ARGS".into(),
        ));
    };
    let outputs = Outputs::prepare(&a.out)?;
    // --report is a copy made at the end: its path is checked before perf runs, so a bad
    // one cannot cost the profile (issue 24, defect 9).
    export::check(&export::targets(&[(
        "--report",
        &a.report,
        plumb_report::Format::Html,
    )]))?;
    let perf = PerfTool::find()?;
    let environment = plumb_env::collect();
    let event = choose_event(&a.event, &environment);
    perf.check_event(&event, &a.out)?;
    let path = binary::resolve(program).ok_or_else(|| {
        CliError::msg(format!(
            "cannot run {program:?}: no such executable (a path, or a program on PATH)"
        ))
    })?;
    let facts = binary::inspect(&path);
    let (call_graph, why) = call_graph(a.call_graph, &facts);
    let (argv, name) = match &a.bench {
        Some(bench) => (bench_argv(&path, &a, bench)?, bench.clone()),
        None => (
            a.command.iter().map(OsString::from).collect(),
            a.command.join(" "),
        ),
    };
    let settings = ProfileSettings {
        event: event.clone(),
        frequency_hz: a.frequency,
        call_graph,
        call_graph_why: why,
        bench: a.bench.clone(),
        perf_version: perf.version.clone(),
    };
    let request = Request {
        argv,
        name,
        sampler: Sampler {
            event,
            frequency_hz: a.frequency,
            call_graph,
        },
        region: a
            .bench
            .as_ref()
            .map(|_| plumb_profile::BENCH_REGIONS.map(String::from).to_vec()),
        data: outputs.perf_data(),
    };
    if facts.stripped {
        eprintln!(
            "plumb: note: {} has no symbols (stripped): its functions will be shown as addresses",
            path.display()
        );
    }
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
    let doc = document(environment, settings, &taken, &session);
    finish(&a, &outputs, &doc, &taken, &request.sampler, &session)
}

/// Annotations and allocation sites, when asked for. A failure of either is a warning:
/// the profile itself is taken.
fn extras(a: &ProfileArgs, perf: &PerfTool, outputs: &Outputs, p: &mut Profile) {
    for function in &a.annotate {
        match plumb_profile::annotate::annotate(perf, &outputs.perf_data(), function) {
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
    let argv: Vec<OsString> = a.command.iter().map(OsString::from).collect();
    Ok(match &a.bench {
        None => plumb_profile::dhat::command_sites(&argv, outputs.dir())?,
        Some(bench) => plumb_profile::dhat::bench_sites(&argv, bench, outputs.dir())?,
    })
}

/// How stacks are unwound, and why: as asked, or what the binary allows.
fn call_graph(asked: CallGraphArg, facts: &binary::BinaryFacts) -> (CallGraph, String) {
    match asked {
        CallGraphArg::Auto => (facts.call_graph, facts.why.clone()),
        CallGraphArg::Fp => (
            CallGraph::FramePointers,
            "frame pointers, as asked (--call-graph fp)".into(),
        ),
        CallGraphArg::Dwarf => (
            CallGraph::Dwarf,
            "DWARF unwinding, as asked (--call-graph dwarf)".into(),
        ),
    }
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
    let mut written = outputs.write(doc, profile, settings, a.top)?;
    // The page is already in the output directory: copied, not drawn again.
    if let Some(path) = &a.report {
        std::fs::copy(outputs.dir().join(profile_out::REPORT), path)
            .map_err(|e| CliError::msg(format!("cannot write {}: {e}", path.display())))?;
        written.push(path.clone());
    }
    let mut text = plumb_report::render_profile_with_details(profile, settings, a.top);
    text.push_str(&profile_out::written_lines(&written));
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

fn document(
    environment: Environment,
    settings: ProfileSettings,
    taken: &Taken,
    session: &session::Session,
) -> ResultDocument {
    let mut doc = ResultDocument::new(
        env!("CARGO_PKG_VERSION"),
        Invocation::current(),
        environment,
        Settings::default_levels(ProducerSettings::Profile(settings)),
    );
    if taken.interrupted {
        doc.status = RunStatus::Interrupted {
            signal: Some(session.signal_name()),
        };
    }
    doc.profiles.push(taken.profile.clone());
    doc
}

/// `auto`: cycles where the CPU counts them (a sample per so many cycles follows where
/// the CPU works), cpu-clock (a timer) where it does not.
fn choose_event(asked: &str, env: &Environment) -> String {
    match asked {
        "auto" if env.hardware_counters_open() => "cycles".into(),
        "auto" => "cpu-clock".into(),
        other => other.to_string(),
    }
}

/// The plumb-bench target run for `--bench-time` in its untimed loop, only `bench`
/// chosen; refused when the target has no benchmark of that name.
fn bench_argv(path: &Path, a: &ProfileArgs, bench: &str) -> Result<Vec<OsString>, CliError> {
    let listed = std::process::Command::new(path)
        .args(&a.command[1..])
        .args(["--bench", "--list"])
        .stderr(std::process::Stdio::null())
        .output()
        .map_err(|e| CliError::msg(format!("cannot run {}: {e}", path.display())))?;
    let names = String::from_utf8_lossy(&listed.stdout);
    if !names.lines().any(|n| n == bench) {
        let some: Vec<&str> = names.lines().take(8).collect();
        return Err(CliError::msg(format!(
            "{} has no benchmark {bench:?}{}",
            path.display(),
            if some.is_empty() {
                " (is it a plumb-bench target?)".to_string()
            } else {
                format!(" (it has: {})", some.join(", "))
            }
        )));
    }
    let mut argv: Vec<OsString> = a.command.iter().map(OsString::from).collect();
    let child = plumb_model::bench_child::BenchChild {
        bench: bench.to_string(),
        run: plumb_model::bench_child::ChildRun::For(
            a.bench_time
                .max(plumb_model::quantity::Duration::from_millis(1)),
        ),
        region_time: None,
    };
    argv.extend(child.args().into_iter().map(OsString::from));
    Ok(argv)
}
