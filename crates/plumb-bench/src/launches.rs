//! `--launches N` (10 by default): the chosen benchmarks are measured in N fresh
//! processes of this bench binary (re-executed with exact filters), each process taking
//! every benchmark with 1/N of its samples and time, and each benchmark's launches are
//! merged. A process fixes code and data placement and address-space randomisation for
//! all its samples, so between-launch variation is a noise source that the samples of
//! one process cannot show: the launches, not the samples, are the replicates.

use crate::args::Args;
use crate::error::{system, BenchError};
use crate::launched::LaunchDoc;
use crate::registry::Entry;
use plumb_model::quantity::Duration;
use plumb_model::{Benchmark, BenchmarkKind, Correction, Metric};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration as StdDuration, Instant};

/// What the launches gave one benchmark.
#[derive(Default)]
struct Kept {
    launches: Vec<Benchmark>,
    /// Why a launch gave no result, by launch number (from 1).
    failures: Vec<(usize, String)>,
}

/// How launches are started: this binary, a directory for what they write, the options
/// they share, and the stop flag they watch.
struct Launcher<'a> {
    exe: std::path::PathBuf,
    dir: crate::scratch::ScratchDir,
    args: &'a Args,
    stop: &'a AtomicBool,
}

/// Measures `entries` in `args.launches` child processes and merges each benchmark's
/// launches into one. A benchmark with neither a launch nor a failure (a stop came first)
/// is left out, as an unstarted benchmark is in one process. `progress` prints a line a
/// launch.
pub(crate) fn measure(
    args: &Args,
    entries: &[&Entry<'_>],
    stop: &AtomicBool,
    progress: bool,
) -> Result<Vec<Benchmark>, BenchError> {
    let launcher = Launcher {
        exe: this_binary()?,
        dir: crate::scratch::ScratchDir::new()
            .map_err(system("cannot make a temporary directory"))?,
        args,
        stop,
    };
    let names: Vec<String> = entries.iter().map(|e| e.full_name.clone()).collect();
    let mut kept: Vec<Kept> = entries.iter().map(|_| Kept::default()).collect();
    // One process takes all the benchmarks of a launch (one start-up, not one a
    // benchmark), until one dies without writing its result: from then on each benchmark
    // has a process of its own, so a routine that kills its process loses only itself.
    let mut alone = names.len() == 1;
    for l in 1..=args.launches {
        if launcher.stopped() {
            break;
        }
        if progress {
            eprint!("  launch {l} of {} … ", args.launches);
        }
        let started = Instant::now();
        let before: usize = kept.iter().map(|k| k.failures.len()).sum();
        let mut said = String::new();
        if !alone {
            match launcher.run(&names) {
                Launched::Wrote(doc) => launcher.take(&mut kept, &names, *doc, l),
                Launched::Died(_) if launcher.stopped() => {}
                Launched::Died(why) => {
                    alone = true;
                    said = format!("; it {why}: from now on one benchmark a process");
                }
            }
        }
        if alone {
            launcher.one_by_one(&mut kept, &names, l);
        }
        if progress {
            let failed = kept.iter().map(|k| k.failures.len()).sum::<usize>() - before;
            let took = plumb_model::format::time(started.elapsed());
            match failed {
                0 => eprintln!("{took}{said}"),
                n => eprintln!("{took}, {n} failed{said}"),
            }
        }
    }
    Ok(entries
        .iter()
        .zip(kept)
        .filter(|(_, k)| !k.launches.is_empty() || !k.failures.is_empty())
        .map(|(e, k)| merge(e, k.launches, k.failures))
        .collect())
}

/// This binary, as the kernel has it mapped: every launch runs the same code even if the
/// file is rebuilt meanwhile.
fn this_binary() -> Result<std::path::PathBuf, BenchError> {
    let proc = std::path::PathBuf::from("/proc/self/exe");
    if proc.exists() {
        return Ok(proc);
    }
    std::env::current_exe().map_err(system("cannot find this bench binary"))
}

/// In a launch: end with the parent, which alone reads what a launch writes (a parent
/// killed outright leaves no one to wait for it).
pub(crate) fn end_with_parent() {
    // SAFETY: prctl(2) with PR_SET_PDEATHSIG and a signal number; no memory is involved.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
}

impl Launcher<'_> {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Launch `l` with a process for each benchmark.
    fn one_by_one(&self, kept: &mut [Kept], names: &[String], l: usize) {
        for (i, name) in names.iter().enumerate() {
            if self.stopped() {
                break;
            }
            let one = std::slice::from_ref(name);
            match self.run(one) {
                Launched::Wrote(doc) => self.take(&mut kept[i..=i], one, *doc, l),
                // A launch stopped by Ctrl-C before it wrote is no failure of its routine.
                Launched::Died(_) if self.stopped() => {}
                Launched::Died(why) => kept[i].failures.push((l, why)),
            }
        }
    }

    /// Each benchmark of `names` from launch `l`'s result: kept, or its failure.
    fn take(&self, kept: &mut [Kept], names: &[String], mut doc: LaunchDoc, l: usize) {
        for (k, name) in kept.iter_mut().zip(names) {
            match doc.take(name) {
                Some(b) => match b.function().and_then(|f| f.failure.clone()) {
                    Some(why) => k.failures.push((l, why)),
                    // Stopped before its first sample (in warm-up, say): nothing to keep.
                    None if b.samples.is_empty() && self.stopped() => {}
                    None if b.samples.is_empty() => k.failures.push((l, "no samples".into())),
                    None => k.launches.push(b),
                },
                // Stopped before it started: as in one process, nothing to say.
                None if self.stopped() => {}
                None => k.failures.push((
                    l,
                    format!(
                        "its result has no benchmark {name:?} (is it registered only sometimes?)"
                    ),
                )),
            }
        }
    }

    /// Runs one launch of the benchmarks `names` and reads what it wrote. A stop asked
    /// of this process is passed on to the child (a terminal's Ctrl-C reaches both; a
    /// `kill` reaches only this one), which then writes what it measured.
    fn run(&self, names: &[String]) -> Launched {
        let out = self.dir.path().join("launch.json");
        let err = self.dir.path().join("launch.stderr");
        let _ = std::fs::remove_file(&out);
        let started = std::fs::File::create(&err).and_then(|stderr| {
            Command::new(&self.exe)
                .args(self.args.child_args(names, &out))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(stderr)
                .spawn()
        });
        let waited = started.and_then(|mut child| wait_passing_stop(&mut child, self.stop));
        let status = match waited {
            Ok(status) => status,
            Err(e) => return Launched::Died(format!("could not be started ({e})")),
        };
        let doc = std::fs::read_to_string(&out)
            .ok()
            .and_then(|t| LaunchDoc::read(&t).ok());
        match doc {
            Some(doc) => Launched::Wrote(Box::new(doc)),
            None => {
                let stderr = std::fs::read_to_string(&err).unwrap_or_default();
                Launched::Died(died(status, &stderr))
            }
        }
    }
}

/// What became of one child process.
enum Launched {
    Wrote(Box<LaunchDoc>),
    /// It wrote no readable result: how it ended and the end of what it said.
    Died(String),
}

/// Waits for `child`, sending it SIGINT once if `stop` is raised meanwhile. This thread
/// blocks in wait(), so the launch's end is seen at once; a watcher looks at `stop` ten
/// times a second (a few microseconds each, on whichever core the child is not using)
/// and ends as soon as the wait does.
fn wait_passing_stop(
    child: &mut std::process::Child,
    stop: &AtomicBool,
) -> std::io::Result<ExitStatus> {
    let pid = child.id() as libc::pid_t;
    let (done, ended) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                ended.recv_timeout(StdDuration::from_millis(100))
            {
                if stop.load(Ordering::Relaxed) {
                    // SAFETY: kill(2) on our child's pid; no memory is involved. The pid
                    // is reaped by wait() a few instructions before `done` is dropped, too
                    // short a window for the system to reuse it.
                    unsafe {
                        libc::kill(pid, libc::SIGINT);
                    }
                    return;
                }
            }
        });
        let status = child.wait();
        drop(done);
        status
    })
}

/// How a launch that wrote nothing ended: its status and its last lines on stderr.
fn died(status: ExitStatus, stderr: &str) -> String {
    let tail: Vec<&str> = stderr.lines().rev().take(3).collect();
    let said = tail.into_iter().rev().collect::<Vec<_>>().join(" / ");
    // A binary whose main does not hand its arguments to Harness::from_env (a test
    // harness's, say) exits refusing them, in its own words or none; a routine that
    // kills its process ends by a signal.
    let hint = match status.code() {
        Some(_) => " (does this binary's main build its harness with Harness::from_env?)",
        None => "",
    };
    if said.is_empty() {
        format!("died ({status}) without a result{hint}")
    } else {
        format!("died ({status}) without a result: {said}{hint}")
    }
}

/// Launches' failures, one line for each reason: "launches 1, 2, 3: died …", not the same
/// words ten times.
fn failure_lines(failures: Vec<(usize, String)>) -> Vec<String> {
    let mut by_reason: Vec<(String, Vec<usize>)> = Vec::new();
    for (l, why) in failures {
        match by_reason.iter_mut().find(|(w, _)| *w == why) {
            Some((_, ls)) => ls.push(l),
            None => by_reason.push((why, vec![l])),
        }
    }
    by_reason
        .into_iter()
        .map(|(why, ls)| {
            let list: Vec<String> = ls.iter().map(usize::to_string).collect();
            let word = if ls.len() == 1 { "launch" } else { "launches" };
            format!("{word} {}: {why}", list.join(", "))
        })
        .collect()
}

/// One benchmark from its launches: samples in launch order, with each launch's count.
fn merge(e: &Entry<'_>, launches: Vec<Benchmark>, failures: Vec<(usize, String)>) -> Benchmark {
    let mut b = Benchmark::new(&e.full_name, BenchmarkKind::Function);
    b.group = e.compare_set.clone();
    b.baseline = e.baseline;
    b.parameters = e.parameters.clone();
    b.working_set = launches.first().and_then(|l| l.working_set);
    b.design = launches.first().and_then(|l| l.design.clone());
    b.series = launches.first().and_then(|l| l.series.clone());
    let mut info = launches
        .first()
        .and_then(|l| l.function().cloned())
        .unwrap_or_default();
    info.launch_sample_counts = launches.iter().map(|l| l.samples.len()).collect();
    info.empty_body_samples = Vec::new();
    // The warm-up cap is over all launches (`Args::child_args`): so is the time spent.
    info.warmup_time = Default::default();
    // Each launch sampled to its own precision; across launches the launch means are the
    // replicates, and the first launch's figures would speak for none of the others.
    info.target_error = None;
    info.batch_means_error = None;
    info.precision_stop = None;
    for l in &launches {
        if b.metrics.is_empty() {
            b.metrics = l.metrics.clone();
        }
        // Launches of one binary measure the same metrics; a mismatch would be a bug.
        let joined = b.samples.append(&l.samples).and(b.warmup.append(&l.warmup));
        if let Err(e) = joined {
            info.failure = Some(format!("launches do not join: {e}"));
        }
        if let Some(f) = l.function() {
            info.empty_body_samples
                .extend(f.empty_body_samples.iter().copied());
            info.steady_state &= f.steady_state;
            info.warmup_time += f.warmup_time;
        }
    }
    // The empty body's cost over every launch's calibration, not the first's alone.
    let empties = &info.empty_body_samples;
    info.empty_body = (!empties.is_empty()).then(|| {
        let sum: Duration = empties.iter().copied().sum();
        sum.div_u64(empties.len() as u64)
    });
    if !failures.is_empty() {
        let earlier = info.failure.take().into_iter();
        let said = earlier.chain(failure_lines(failures));
        info.failure = Some(said.collect::<Vec<_>>().join("; "));
    }
    // Delta timing's fixed cost per sample does not depend on the batch: the launches'
    // estimates are averaged, and their standard errors combined as a mean's.
    let corrections: Vec<&Correction> = launches
        .iter()
        .filter_map(|l| l.correction(&Metric::WallTime))
        .collect();
    if let Some(first) = corrections.first() {
        let n = corrections.len() as f64;
        b.corrections = vec![Correction {
            metric: Metric::WallTime,
            value: corrections.iter().map(|c| c.value).sum::<f64>() / n,
            std_err: corrections
                .iter()
                .map(|c| c.std_err.powi(2))
                .sum::<f64>()
                .sqrt()
                / n,
            reason: first.reason.clone(),
        }];
    }
    b.set_function(info);
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{FunctionInfo, MetricInfo};

    fn launch(times: &[u64], allocs: u64) -> Benchmark {
        let mut b = Benchmark::new("g/x", BenchmarkKind::Function);
        for m in [Metric::WallTime, Metric::Allocations] {
            b.metrics.insert(m.clone(), MetricInfo::measured(&m));
        }
        for &t in times {
            b.samples
                .push(1, &[(Metric::WallTime, t), (Metric::Allocations, allocs)]);
        }
        b.set_function(FunctionInfo {
            steady_state: true,
            empty_body_samples: vec![Duration::from_picos(300); 2],
            ..FunctionInfo::default()
        });
        b
    }

    #[test]
    fn merges_samples_in_launch_order_with_counts_and_keeps_failures() {
        let entry = Entry {
            full_name: "g/x".into(),
            compare_set: Some("g".into()),
            baseline: true,
            parameters: Default::default(),
            routine: Box::new(|_| {}),
        };
        let b = merge(
            &entry,
            vec![launch(&[10, 11], 1), launch(&[20, 21, 22], 3)],
            vec![
                (3, "panicked: boom".into()),
                (4, "died".into()),
                (5, "panicked: boom".into()),
            ],
        );
        assert_eq!(
            b.samples.values(&Metric::WallTime).unwrap(),
            [10, 11, 20, 21, 22]
        );
        assert_eq!(
            b.samples.values(&Metric::Allocations).unwrap(),
            [1, 1, 3, 3, 3]
        );
        let f = b.function().unwrap();
        assert_eq!(f.launch_sample_counts, [2, 3]);
        assert_eq!(f.empty_body_samples.len(), 4);
        assert_eq!(
            f.failure.as_deref(),
            Some("launches 3, 5: panicked: boom; launch 4: died")
        );
        assert_eq!(b.launch_means(&Metric::WallTime).unwrap(), [10.5, 21.0]);
        assert!(b.baseline && b.group.as_deref() == Some("g"));
    }
}
