//! The runs of a repeated load test (`plumb load --repeat N`) as one result: what they
//! measured together, and each run's own figures, whose spread is the run-to-run
//! variation that one run cannot show.

use crate::merge::combine;
use crate::{CombineError, LoadError};
use plumb_model::{LoadInfo, LoadRun, MeasuredWindow};

/// `runs`, in the order they ran, as one result: counts and histograms added, rates over
/// the runs' summed durations (the pauses between them are not part of any window),
/// per-second rows end to end, and each run kept in `runs`.
pub fn join_runs(runs: &[LoadInfo]) -> Result<LoadInfo, LoadError> {
    let first = runs.first().ok_or(CombineError::Nothing)?;
    if let Some(r) = runs.iter().find(|r| r.mode != first.mode) {
        return Err(CombineError::RunModes {
            first: first.mode.to_string(),
            other: r.mode.to_string(),
        }
        .into());
    }
    let parts: Vec<&LoadInfo> = runs.iter().collect();
    let total = runs.iter().map(|r| r.duration).sum();
    let mut info = combine(&parts, None, total)?;
    // One test's bound and threads, not their sum over runs.
    info.concurrency = first.concurrency;
    info.threads = first.threads;
    info.target_rate = first.target_rate;
    let mut timeline = Vec::new();
    let mut offset = 0;
    for r in runs {
        timeline.extend(r.timeline.iter().map(|row| {
            let mut row = row.clone();
            row.second += offset;
            row
        }));
        offset += r.timeline.last().map_or(0, |row| row.second + 1);
    }
    info.timeline = timeline;
    let windows: Vec<MeasuredWindow> = runs.iter().filter_map(|r| r.window).collect();
    info.window = windows
        .first()
        .zip(windows.last())
        .map(|(a, b)| MeasuredWindow {
            start: a.start,
            end: b.end,
        });
    info.runs = runs
        .iter()
        .map(|r| LoadRun {
            window: r.window,
            achieved_rate: r.achieved_rate,
            ok: r.ok,
            errors: r.error_count(),
            latency: r.latency.clone(),
        })
        .collect();
    Ok(info)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hdrhistogram::Histogram;
    use plumb_model::quantity::{Duration, Timestamp};
    use plumb_model::{LatencyDistribution, TimelineRow};

    fn run(start: f64, values: &[u64]) -> LoadInfo {
        let mut h = Histogram::<u64>::new_with_bounds(1, 3_600_000_000, 3).unwrap();
        for v in values {
            h.record(*v).unwrap();
        }
        let d = LatencyDistribution::from_histogram(&h);
        let row = |second| TimelineRow {
            second,
            ok: 1,
            errors: 0,
            p50: Some(Duration::from_micros(1)),
            p99: Some(Duration::from_micros(1)),
            max: Duration::from_micros(1),
            hdr_base64: None,
        };
        LoadInfo {
            target_rate: Some(2.0),
            achieved_rate: values.len() as f64 / 2.0,
            duration: Duration::from_secs(2),
            concurrency: 8,
            connections_opened: 8,
            timeline: vec![row(0), row(1)],
            window: Some(MeasuredWindow {
                start: Timestamp::from_unix_secs_f64(start),
                end: Timestamp::from_unix_secs_f64(start + 2.0),
            }),
            ..LoadInfo::answered(d)
        }
    }

    #[test]
    fn runs_join_end_to_end_and_keep_their_own_percentiles() {
        let a = run(100.0, &[10, 20, 30, 40]);
        let b = run(105.0, &[100, 200]);
        let j = join_runs(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(j.ok, 6);
        assert_eq!(j.latency.count, 6);
        // Six answers over 4 s of measured windows (not the 7 s from first start to last end).
        assert_eq!(j.duration, Duration::from_secs(4));
        assert_eq!(j.achieved_rate, 1.5);
        assert_eq!(j.target_rate, Some(2.0));
        assert_eq!((j.concurrency, j.connections_opened), (8, 16));
        let seconds: Vec<u64> = j.timeline.iter().map(|r| r.second).collect();
        assert_eq!(seconds, [0, 1, 2, 3]);
        assert_eq!(j.window.unwrap().start.as_unix_secs_f64(), 100.0);
        assert_eq!(j.window.unwrap().end.as_unix_secs_f64(), 107.0);
        assert_eq!(j.runs.len(), 2);
        assert_eq!(j.runs[0].latency, a.latency);
        assert_eq!(
            j.runs[1].latency.percentile("p50"),
            Some(Duration::from_micros(100))
        );
        assert_eq!(j.runs[1].ok, 2);
    }

    #[test]
    fn a_repeated_result_is_not_merged_as_agents() {
        let j = join_runs(&[run(0.0, &[1, 2]), run(3.0, &[3, 4])]).unwrap();
        let other = run(0.0, &[5]);
        let e = crate::merge_load(&[&j, &other], &["a.json".into(), "b.json".into()])
            .err()
            .unwrap();
        assert!(e.to_string().contains("a.json is a repeated test"), "{e}");
    }
}
