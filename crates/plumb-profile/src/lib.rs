//! The profile producer: `perf record` with call graphs around a command (or one
//! benchmark's measured loop), folded by inferno into stacks and counted into the
//! top-functions table; per-instruction annotation; allocation sites by valgrind's DHAT.
//! Differences between profiles and Amdahl's bound are plumb-analysis's; the flame
//! graphs are drawn by plumb-report.

pub mod annotate;
mod ascii_shield;
pub mod binary;
pub mod dhat;
mod error;
pub mod folded;
pub mod functions;
pub mod names;
#[cfg(feature = "cli")]
pub mod options;
pub mod perf_tool;
mod plan;
pub mod record;
pub mod script;

pub use error::{ProfileError, Unreadable};
pub use perf_tool::PerfTool;
pub use plan::{document, plan, Asked, Planned, Unwinding};
pub use record::{Sampler, DEFAULT_FREQUENCY_HZ};

/// The frames of plumb-bench's untimed twins of its measured loops
/// (`measure::untimed_region_*`), where `plumb profile --bench` cuts each stack: what
/// they called is the benchmark's, what called them is the harness's.
pub use plumb_model::bench_child::UNTIMED_REGIONS as BENCH_REGIONS;

use plumb_model::Profile;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One profile to take.
#[derive(Debug, Clone)]
pub struct Request {
    /// What to run under perf.
    pub argv: Vec<OsString>,
    /// What the profile is called (the command line, or the benchmark).
    pub name: String,
    pub sampler: Sampler,
    /// Keep only the stacks through one of these frames, cut there (a benchmark's
    /// measured loop: `BENCH_REGIONS`).
    pub region: Option<Vec<String>>,
    /// Where perf.data goes.
    pub data: PathBuf,
}

/// A profile taken, and how the taking went.
#[derive(Debug)]
pub struct Taken {
    pub profile: Profile,
    pub interrupted: bool,
    /// How long the command lived, from perf's task events (read only when there are no
    /// samples, to say why).
    pub lifetime: Option<Duration>,
}

/// Records, folds and counts. A command that fails or crashes still gives the profile of
/// what ran; so does a stop request (Ctrl-C).
pub fn take(perf: &PerfTool, request: &Request, stop: &AtomicBool) -> Result<Taken, ProfileError> {
    let recording = record::record(perf, &request.sampler, &request.argv, &request.data, stop)?;
    let lost = record::lost_records(perf, &recording.data);
    let script = script::run(perf, &recording.data)?;
    let regions = request.region.as_deref().unwrap_or(&[]);
    let stacks = folded::collapse(&script.text, &request.sampler.event, regions)?;
    let (stacks, outside_samples) = match &request.region {
        Some(regions) => folded::split_region(stacks, regions),
        None => (stacks, 0),
    };
    let functions = functions::table(&stacks, &script.modules, request.region.is_none());
    let profile = Profile {
        name: request.name.clone(),
        samples: folded::total(&stacks),
        outside_samples,
        lost,
        functions,
        stacks,
        unsymbolised: script.unsymbolised(),
        exit: recording.exit.filter(|_| request.region.is_none()),
        annotations: Vec::new(),
        allocations: None,
    };
    let lifetime = if profile.samples == 0 {
        record::lifetime(perf, &recording.data)
    } else {
        None
    };
    Ok(Taken {
        profile,
        interrupted: recording.interrupted,
        lifetime,
    })
}

/// Why a profile has no samples, in a sentence with what to do.
pub fn why_no_samples(taken: &Taken, sampler: &Sampler) -> String {
    let period = std::time::Duration::from_secs_f64(1.0 / f64::from(sampler.frequency_hz.max(1)));
    if taken.profile.outside_samples > 0 {
        return format!(
            "all {} samples fell outside the measured loop: the benchmark's routine ran too briefly, or its stacks could not be unwound up to the loop",
            taken.profile.outside_samples
        );
    }
    let time = |d: std::time::Duration| plumb_model::format::time(d);
    if let Some(ran) = taken.lifetime.filter(|&d| d < 20 * period) {
        return format!(
            "the command ran for {}, and {} takes a sample every {} of its time: run it longer (a larger input, a loop) or raise --frequency",
            time(ran),
            sampler.event,
            time(period)
        );
    }
    if matches!(taken.profile.exit, Some(e) if !e.success()) {
        return "the command failed before doing work worth a sample".to_string();
    }
    let ran = taken
        .lifetime
        .map_or(String::new(), |d| format!(" in {}", time(d)));
    let fix = if sampler.event == "cpu-clock" {
        "the command may have waited (sleep, I/O) rather than run: cpu-clock counts CPU time only"
    } else {
        "the event may not count on this machine: try --event cpu-clock"
    };
    format!("perf took no {} samples{ran}: {fix}", sampler.event)
}

/// A profile read back from `.folded` text (FlameGraph's, inferno's, or plumb's own
/// stacks.folded): the first frame of each stack is the process, and modules are unknown.
/// A saved profile with samples: a plumb result with a profile (plumb profile's
/// `profile.json`), or `.folded` stacks.
pub fn read_saved(path: &std::path::Path) -> Result<Profile, ProfileError> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| ProfileError::Input(format!("cannot read {shown}: {e}")))?;
    let profile = if text.trim_start().starts_with('{') {
        let doc = plumb_model::ResultDocument::from_json(&text)
            .map_err(|e| ProfileError::Input(format!("{shown}: {e}")))?;
        if doc.profiles.len() > 1 {
            return Err(ProfileError::Input(format!(
                "{shown}: holds {} profiles; give one (plumb profile writes one a file)",
                doc.profiles.len()
            )));
        }
        let profile = doc.profiles.into_iter().next().ok_or_else(|| {
            ProfileError::Input(format!(
                "{shown}: a plumb result without a profile (give plumb profile's profile.json)"
            ))
        })?;
        consistent(&profile).map_err(|why| ProfileError::Input(format!("{shown}: {why}")))?;
        profile
    } else {
        from_folded(&shown.to_string(), &text)?
    };
    if profile.samples == 0 {
        return Err(ProfileError::Input(format!(
            "{shown}: the profile has no samples"
        )));
    }
    Ok(profile)
}

/// Why a saved profile's counts cannot be what perf sampled.
#[derive(Debug)]
struct Inconsistent(String);

impl std::fmt::Display for Inconsistent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether a saved profile's counts can be what perf sampled: no function in more samples
/// than the profile has, none with more of its own samples than its total, none listed
/// twice. A file edited or written by another tool can say otherwise, and a share above
/// 100 % would be read as a figure.
fn consistent(p: &Profile) -> Result<(), Inconsistent> {
    let mut seen = std::collections::HashSet::new();
    for f in &p.functions {
        if f.total_samples > p.samples {
            return Err(Inconsistent(format!(
                "{} is in {} samples, more than the profile's {}",
                f.name, f.total_samples, p.samples
            )));
        }
        if f.self_samples > f.total_samples {
            return Err(Inconsistent(format!(
                "{} has {} samples of its own, more than its total {}",
                f.name, f.self_samples, f.total_samples
            )));
        }
        if !seen.insert((f.name.as_str(), f.module.as_str())) {
            return Err(Inconsistent(format!(
                "{} ({}) is listed twice",
                f.name, f.module
            )));
        }
    }
    Ok(())
}

pub fn from_folded(name: &str, text: &str) -> Result<Profile, ProfileError> {
    let mut stacks =
        folded::parse(text).map_err(|e| ProfileError::Input(format!("{name}: {e}")))?;
    folded::sort(&mut stacks);
    let functions = functions::table(&stacks, &Default::default(), true);
    Ok(Profile {
        name: name.to_string(),
        samples: folded::total(&stacks),
        outside_samples: 0,
        lost: 0,
        stacks,
        functions,
        unsymbolised: Vec::new(),
        exit: None,
        annotations: Vec::new(),
        allocations: None,
    })
}
