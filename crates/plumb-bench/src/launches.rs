//! `--launches N`: each benchmark is measured in N fresh processes of this bench binary
//! (re-executed with an exact filter), and the launches are merged. A process fixes code
//! layout and address-space randomisation for all its samples, so between-launch
//! variation is a noise source that within-process samples cannot show.

use crate::args::Args;
use crate::error::{system, BenchError};
use crate::registry::Entry;
#[cfg(test)]
use plumb_model::quantity::Duration;
use plumb_model::{Benchmark, BenchmarkKind, Correction, Metric, ResultDocument};
use std::process::{Command, Stdio};

/// Measures `e` in `args.launches` child processes and merges them into one benchmark.
pub(crate) fn measure(
    args: &Args,
    e: &Entry<'_>,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<Benchmark, BenchError> {
    let exe = std::env::current_exe().map_err(system("cannot find this bench binary"))?;
    let dir = tempfile::tempdir().map_err(system("cannot make a temporary directory"))?;
    let mut launches = Vec::new();
    let mut failures = Vec::new();
    for l in 0..args.launches {
        // Ctrl-C reaches the launch too (one process group): it writes what it measured,
        // which is kept, and no further launch starts.
        if l > 0 && stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let out = dir.path().join(format!("launch-{l}.json"));
        let run = Command::new(&exe)
            .args(args.child_args(&e.full_name, &out))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(system(format!("cannot start launch {}", l + 1)))?;
        let doc = std::fs::read_to_string(&out)
            .ok()
            .and_then(|t| ResultDocument::from_json(&t).ok());
        match doc.and_then(|d| d.benchmark(&e.full_name).cloned()) {
            Some(b) if run.status.success() || stop.load(std::sync::atomic::Ordering::Relaxed) => {
                launches.push(b)
            }
            Some(b) => {
                let why = b
                    .function()
                    .and_then(|f| f.failure.clone())
                    .unwrap_or_default();
                failures.push(format!("launch {}: {why}", l + 1));
            }
            None => {
                let err = String::from_utf8_lossy(&run.stderr);
                let tail: Vec<&str> = err.lines().rev().take(3).collect();
                failures.push(format!(
                    "launch {} ({}): {}",
                    l + 1,
                    run.status,
                    tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
                ));
            }
        }
    }
    Ok(merge(e, launches, failures))
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
