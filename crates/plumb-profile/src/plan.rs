//! A profile planned from what was asked: the event (`auto`: cycles where the CPU counts
//! them, the cpu-clock timer where not), the unwinding (as asked, or what the binary
//! allows), a plumb-bench target's one benchmark run in its untimed loop; and the result
//! document a taken profile makes.
use crate::binary::{self, BinaryFacts};
use crate::{PerfTool, ProfileError, Request, Sampler, Taken, BENCH_REGIONS};
use plumb_model::bench_child::{BenchChild, ChildRun};
use plumb_model::quantity::Duration;
use plumb_model::{
    CallGraph, Environment, Invocation, ProducerSettings, ProfileSettings, ResultDocument,
    RunStatus, Settings,
};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// How stacks are to be unwound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unwinding {
    /// What the binary allows (frame pointers where its code keeps them, else DWARF).
    Auto,
    FramePointers,
    Dwarf,
}

/// What `plumb profile` was asked.
pub struct Asked<'a> {
    /// The command line: the program, then its arguments.
    pub command: &'a [String],
    /// `auto`, or a perf event.
    pub event: &'a str,
    pub frequency_hz: u32,
    pub unwinding: Unwinding,
    /// One benchmark of a plumb-bench target, profiled in its untimed loop for `bench_time`.
    pub bench: Option<&'a str>,
    pub bench_time: Duration,
    /// Where perf.data goes.
    pub data: PathBuf,
}

/// A profile ready to take: the request, the settings its result records, and what the
/// binary is.
pub struct Planned {
    pub request: Request,
    pub settings: ProfileSettings,
    pub binary: BinaryFacts,
}

/// Plans `asked` on a machine whose record is `environment`, the event checked with perf.
pub fn plan(
    perf: &PerfTool,
    asked: &Asked,
    environment: &Environment,
) -> Result<Planned, ProfileError> {
    let program = asked.command.first().ok_or_else(|| {
        ProfileError::NoCommand(
            "give the command to profile after `--`: plumb profile -- ./prog ARGS".into(),
        )
    })?;
    let event = match asked.event {
        "auto" if environment.hardware_counters_open() => "cycles".to_string(),
        "auto" => "cpu-clock".to_string(),
        other => other.to_string(),
    };
    let data_dir = asked.data.parent().unwrap_or(Path::new("."));
    perf.check_event(&event, data_dir)?;
    let path = binary::resolve(program).ok_or_else(|| {
        ProfileError::NoCommand(format!(
            "cannot run {program:?}: no such executable (a path, or a program on PATH)"
        ))
    })?;
    let facts = binary::inspect(&path);
    let (call_graph, why) = match asked.unwinding {
        Unwinding::Auto => (facts.call_graph, facts.why.clone()),
        Unwinding::FramePointers => (
            CallGraph::FramePointers,
            "frame pointers, as asked (--call-graph fp)".into(),
        ),
        Unwinding::Dwarf => (
            CallGraph::Dwarf,
            "DWARF unwinding, as asked (--call-graph dwarf)".into(),
        ),
    };
    let (argv, name) = match asked.bench {
        Some(bench) => (bench_argv(&path, asked, bench)?, bench.to_string()),
        None => (
            asked.command.iter().map(OsString::from).collect(),
            asked.command.join(" "),
        ),
    };
    let settings = ProfileSettings {
        event: event.clone(),
        frequency_hz: asked.frequency_hz,
        call_graph,
        call_graph_why: why,
        bench: asked.bench.map(str::to_string),
        perf_version: perf.version.clone(),
    };
    let request = Request {
        argv,
        name,
        sampler: Sampler {
            event,
            frequency_hz: asked.frequency_hz,
            call_graph,
        },
        region: asked
            .bench
            .map(|_| BENCH_REGIONS.map(String::from).to_vec()),
        data: asked.data.clone(),
    };
    Ok(Planned {
        request,
        settings,
        binary: facts,
    })
}

/// The plumb-bench target run for `bench_time` in its untimed loop, only `bench`
/// chosen; refused when the target has no benchmark of that name.
fn bench_argv(path: &Path, asked: &Asked, bench: &str) -> Result<Vec<OsString>, ProfileError> {
    let listed = std::process::Command::new(path)
        .args(&asked.command[1..])
        .args(["--bench", "--list"])
        .stderr(std::process::Stdio::null())
        .output()
        .map_err(|e| ProfileError::NoCommand(format!("cannot run {}: {e}", path.display())))?;
    let names = String::from_utf8_lossy(&listed.stdout);
    if !names.lines().any(|n| n == bench) {
        let some: Vec<&str> = names.lines().take(8).collect();
        return Err(ProfileError::NoCommand(format!(
            "{} has no benchmark {bench:?}{}",
            path.display(),
            if some.is_empty() {
                " (is it a plumb-bench target?)".to_string()
            } else {
                format!(" (it has: {})", some.join(", "))
            }
        )));
    }
    let mut argv: Vec<OsString> = asked.command.iter().map(OsString::from).collect();
    let child = BenchChild {
        bench: bench.to_string(),
        run: ChildRun::For(asked.bench_time.max(Duration::from_millis(1))),
        region_time: None,
    };
    argv.extend(child.args().into_iter().map(OsString::from));
    Ok(argv)
}

/// The result document of a profile taken; `signal` names what stopped it, if it was.
pub fn document(
    environment: Environment,
    settings: ProfileSettings,
    taken: &Taken,
    signal: &dyn Fn() -> String,
) -> ResultDocument {
    let mut doc = ResultDocument::new(
        env!("CARGO_PKG_VERSION"),
        Invocation::current(),
        environment,
        Settings::default_levels(ProducerSettings::Profile(settings)),
    );
    if taken.interrupted {
        doc.status = RunStatus::Interrupted {
            signal: Some(signal()),
        };
    }
    doc.profiles.push(taken.profile.clone());
    doc
}
