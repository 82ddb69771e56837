//! `--launches N` (10 by default): the chosen benchmarks are measured in N fresh
//! processes of this bench binary (re-executed with exact filters), each process taking
//! every benchmark with 1/N of its samples and time, and each benchmark's launches are
//! merged. A process fixes code and data placement and address-space randomisation for
//! all its samples, so between-launch variation is a noise source that the samples of
//! one process cannot show: the launches, not the samples, are the replicates.

use crate::args::Args;
use crate::error::{system, BenchError};
use crate::registry::Entry;
#[cfg(test)]
use plumb_model::quantity::Duration;
use plumb_model::{Benchmark, BenchmarkKind, Correction, Metric, ResultDocument};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration as StdDuration, Instant};

/// What the launches gave one benchmark.
#[derive(Default)]
struct Kept {
    launches: Vec<Benchmark>,
    failures: Vec<String>,
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
    let exe = std::env::current_exe().map_err(system("cannot find this bench binary"))?;
    let dir = tempfile::tempdir().map_err(system("cannot make a temporary directory"))?;
    let names: Vec<String> = entries.iter().map(|e| e.full_name.clone()).collect();
    let mut kept: Vec<Kept> = entries.iter().map(|_| Kept::default()).collect();
    // One process takes all the benchmarks of a launch (one start-up, not one a
    // benchmark), until one dies without writing its result: from then on each benchmark
    // has a process of its own, so a routine that kills its process loses only itself.
    let mut alone = names.len() == 1;
    for l in 0..args.launches {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if progress {
            eprint!("  launch {} of {} … ", l + 1, args.launches);
        }
        let started = Instant::now();
        let before: usize = kept.iter().map(|k| k.failures.len()).sum();
        let together = !alone
            && match run_launch(&exe, args, &names, dir.path(), stop)? {
                Launched::Wrote(doc) => {
                    take(&mut kept, &names, &doc, l, stop);
                    true
                }
                Launched::Died(_) => {
                    alone = true;
                    false
                }
            };
        if !together {
            for (i, name) in names.iter().enumerate() {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let one = std::slice::from_ref(name);
                match run_launch(&exe, args, one, dir.path(), stop)? {
                    Launched::Wrote(doc) => take(&mut kept[i..=i], one, &doc, l, stop),
                    Launched::Died(why) => {
                        kept[i].failures.push(format!("launch {}: {why}", l + 1))
                    }
                }
            }
        }
        if progress {
            let failed: usize = kept.iter().map(|k| k.failures.len()).sum::<usize>() - before;
            let took = plumb_model::format::time(started.elapsed());
            match failed {
                0 => eprintln!("{took}"),
                n => eprintln!("{took}, {n} failed"),
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

/// Each benchmark of `names` from launch `l`'s result: kept, or its failure.
fn take(kept: &mut [Kept], names: &[String], doc: &ResultDocument, l: usize, stop: &AtomicBool) {
    for (k, name) in kept.iter_mut().zip(names) {
        match doc.benchmark(name) {
            Some(b) => match b.function().and_then(|f| f.failure.clone()) {
                Some(why) => k.failures.push(format!("launch {}: {why}", l + 1)),
                None => k.launches.push(b.clone()),
            },
            // Stopped before it started: as in one process, nothing to say.
            None if stop.load(Ordering::Relaxed) => {}
            None => k
                .failures
                .push(format!("launch {}: not in the launch's result", l + 1)),
        }
    }
}

/// What became of one child process.
enum Launched {
    Wrote(Box<ResultDocument>),
    /// It wrote no readable result: how it ended and the end of what it said.
    Died(String),
}

/// Runs one launch of the benchmarks `names` and reads what it wrote. A stop asked of
/// this process is passed on to the child (a terminal's Ctrl-C reaches both; a `kill`
/// reaches only this one), which then writes what it measured.
fn run_launch(
    exe: &Path,
    args: &Args,
    names: &[String],
    dir: &Path,
    stop: &AtomicBool,
) -> Result<Launched, BenchError> {
    let out = dir.join("launch.json");
    let err = dir.join("launch.stderr");
    let _ = std::fs::remove_file(&out);
    let stderr = std::fs::File::create(&err).map_err(system("cannot make a launch's log"))?;
    let mut child = Command::new(exe)
        .args(args.child_args(names, &out))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .map_err(system("cannot start a launch"))?;
    let status = wait_passing_stop(&mut child, stop).map_err(system("cannot wait for a launch"))?;
    let doc = std::fs::read_to_string(&out)
        .ok()
        .and_then(|t| ResultDocument::from_json(&t).ok());
    Ok(match doc {
        Some(doc) => Launched::Wrote(Box::new(doc)),
        None => Launched::Died(died(
            status,
            &std::fs::read_to_string(&err).unwrap_or_default(),
        )),
    })
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
    if said.is_empty() {
        format!("died ({status}) without a result")
    } else {
        format!("died ({status}) without a result: {said}")
    }
}

/// One benchmark from its launches: samples in launch order, with each launch's count.
fn merge(e: &Entry<'_>, launches: Vec<Benchmark>, failures: Vec<String>) -> Benchmark {
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
            info.warmup_time = info.warmup_time.max(f.warmup_time);
        }
    }
    if !failures.is_empty() {
        let earlier = info.failure.take().into_iter();
        info.failure = Some(earlier.chain(failures).collect::<Vec<_>>().join("; "));
    }
    // A correction per launch would differ; the per-launch corrections are averaged.
    let corrections: Vec<&Correction> = launches
        .iter()
        .filter_map(|l| l.correction(&Metric::WallTime))
        .collect();
    if let Some(first) = corrections.first() {
        let n = corrections.len() as f64;
        b.corrections = vec![Correction {
            metric: Metric::WallTime,
            value: corrections.iter().map(|c| c.value).sum::<f64>() / n,
            std_err: corrections.iter().map(|c| c.std_err).sum::<f64>() / n,
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
            vec!["launch 3: panicked: boom".into()],
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
        assert_eq!(f.failure.as_deref(), Some("launch 3: panicked: boom"));
        assert_eq!(b.launch_means(&Metric::WallTime).unwrap(), [10.5, 21.0]);
        assert!(b.baseline && b.group.as_deref() == Some("g"));
    }
}
