//! Combining the results of agents that loaded one target at the same time: counts add,
//! histograms add losslessly (so merged percentiles equal those of one histogram fed
//! every value), per-second rows add on the wall clock.
//!
//! Merging is only true of runs that overlapped: two runs one after the other did not
//! offer their summed rate at any moment. Whether the windows overlap enough is the
//! analysis' check, asked by the caller (plumb-loadtest) before this; here the same
//! result twice, a repeated test and results of different loops are refused, and rates
//! are over the union of the windows.

use crate::{CombineError, LoadError};
use hdrhistogram::Histogram;
use plumb_model::quantity::{ByteSize, Duration};
use plumb_model::{ConnectionSetup, LatencyDistribution, LoadInfo, MeasuredWindow, TimelineRow};
use std::collections::BTreeMap;

fn add(parts: &[&LatencyDistribution]) -> Result<LatencyDistribution, LoadError> {
    let decode = crate::error::histogram("a result's histogram does not decode");
    let mut total = parts[0].histogram().map_err(&decode)?;
    for p in &parts[1..] {
        total
            .add(p.histogram().map_err(&decode)?)
            .map_err(|e| combine_error("histograms do not combine", e))?;
    }
    Ok(LatencyDistribution::from_histogram(&total))
}

/// `parts` as one result; `names` (one a part: their files) label them in messages.
pub fn merge_load(parts: &[&LoadInfo], names: &[String]) -> Result<LoadInfo, LoadError> {
    let first = parts.first().ok_or(CombineError::Nothing)?;
    if let Some(p) = parts.iter().find(|p| p.mode != first.mode) {
        return Err(CombineError::MergeModes {
            first: first.mode.to_string(),
            other: p.mode.to_string(),
        }
        .into());
    }
    if let Some(i) = parts.iter().position(|p| !p.runs.is_empty()) {
        return Err(CombineError::Repeated {
            input: names[i].clone(),
        }
        .into());
    }
    refuse_duplicates(parts, names)?;
    let windows: Option<Vec<MeasuredWindow>> = parts.iter().map(|p| p.window).collect();
    let span = match &windows {
        Some(w) => union_length(w),
        None => parts.iter().map(|p| p.duration).max().unwrap_or_default(),
    };
    let mut info = combine(parts, windows.as_deref(), span)?;
    info.timeline = seconds(parts, windows.as_deref())?;
    Ok(info)
}

/// The same result given twice (under two names, or copied) would double its counts.
fn refuse_duplicates(parts: &[&LoadInfo], names: &[String]) -> Result<(), LoadError> {
    for i in 0..parts.len() {
        for j in i + 1..parts.len() {
            let (a, b) = (parts[i], parts[j]);
            if a.window == b.window && a.latency.hdr_base64 == b.latency.hdr_base64 && a.ok == b.ok
            {
                return Err(CombineError::Duplicate {
                    a: names[i].clone(),
                    b: names[j].clone(),
                }
                .into());
            }
        }
    }
    Ok(())
}

fn combine_error(what: &'static str, e: impl std::fmt::Debug) -> LoadError {
    LoadError::Histogram {
        what,
        cause: format!("{e:?}"),
    }
}

/// The length of the union of the windows.
fn union_length(w: &[MeasuredWindow]) -> Duration {
    let mut spans: Vec<MeasuredWindow> = w.to_vec();
    spans.sort_by_key(|x| x.start);
    let (mut total, mut cur) = (Duration::ZERO, spans[0]);
    for x in &spans[1..] {
        if x.start > cur.end {
            total += cur.length();
            cur = *x;
        } else {
            cur.end = cur.end.max(x.end);
        }
    }
    total + cur.length()
}

/// `parts` as one result: counts and histograms added, rates over `span`; the
/// per-second timeline is left to the caller.
pub(crate) fn combine(
    parts: &[&LoadInfo],
    windows: Option<&[MeasuredWindow]>,
    span: Duration,
) -> Result<LoadInfo, LoadError> {
    let lat: Vec<&LatencyDistribution> = parts.iter().map(|p| &p.latency).collect();
    let svc: Vec<&LatencyDistribution> = parts.iter().map(|p| &p.service).collect();
    let late: Option<Vec<&LatencyDistribution>> =
        parts.iter().map(|p| p.send_lateness.as_ref()).collect();
    let mut errors = BTreeMap::new();
    let mut examples = BTreeMap::new();
    for p in parts {
        for (k, v) in &p.errors {
            *errors.entry(k.clone()).or_insert(0) += v;
        }
        for (k, v) in &p.error_examples {
            examples.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    let sum_u = |f: fn(&LoadInfo) -> u64| parts.iter().map(|p| f(p)).sum::<u64>();
    let ok = sum_u(|p| p.ok);
    let start = windows.and_then(|w| w.iter().map(|x| x.start).min());
    let end = windows.and_then(|w| w.iter().map(|x| x.end).max());
    let offered: Option<f64> = parts
        .iter()
        .map(|p| p.target_rate.map(|r| r * p.duration.as_secs_f64()))
        .sum();
    let latency = add(&lat)?;
    let span_s = span.as_secs_f64().max(1e-9);
    let achieved_rate = ok as f64 / span_s;
    let mut waits = plumb_model::SlotWaits::default();
    for p in parts {
        waits.add(&p.slot_waits);
    }
    Ok(LoadInfo {
        mode: parts[0].mode.clone(),
        target_rate: offered.map(|o| o / span_s),
        achieved_rate,
        duration: span,
        ok,
        errors,
        concurrency: parts.iter().map(|p| p.concurrency).sum(),
        connections_opened: parts.iter().map(|p| p.connections_opened).sum(),
        mean_in_flight: achieved_rate * latency.mean.as_secs_f64(),
        latency,
        service: add(&svc)?,
        send_lateness: late.map(|l| add(&l)).transpose()?,
        // The caller's: agents' seconds align on the wall clock, runs' end to end.
        timeline: Vec::new(),
        due: sum_u(|p| p.due),
        error_examples: examples,
        slot_waits: waits,
        retried: sum_u(|p| p.retried),
        abandoned: sum_u(|p| p.abandoned),
        body: ByteSize(sum_u(|p| p.body.0)),
        threads: parts.iter().map(|p| p.threads).sum(),
        agents: parts.iter().map(|p| p.agents).sum(),
        window: start
            .zip(end)
            .map(|(start, end)| MeasuredWindow { start, end }),
        generator_busy: parts
            .iter()
            .filter_map(|p| p.generator_busy)
            .reduce(f64::max),
        runs: Vec::new(),
        setup: setups(parts)?,
    })
}

/// The parts' connection setups added (those that timed any).
fn setups(parts: &[&LoadInfo]) -> Result<Option<ConnectionSetup>, LoadError> {
    let timed: Vec<&ConnectionSetup> = parts.iter().filter_map(|p| p.setup.as_ref()).collect();
    if timed.is_empty() {
        return Ok(None);
    }
    let connects: Vec<&LatencyDistribution> = timed.iter().map(|s| &s.connect).collect();
    let handshakes: Vec<&LatencyDistribution> =
        timed.iter().filter_map(|s| s.handshake.as_ref()).collect();
    Ok(Some(ConnectionSetup {
        connect: add(&connects)?,
        handshake: if handshakes.is_empty() {
            None
        } else {
            Some(add(&handshakes)?)
        },
        resumed: timed.iter().map(|s| s.resumed).sum(),
        http2: timed.iter().map(|s| s.http2).sum(),
    }))
}

/// Per-second rows on one wall clock (each agent's seconds shifted by its start), their
/// histograms added when every row has one.
fn seconds(
    parts: &[&LoadInfo],
    windows: Option<&[MeasuredWindow]>,
) -> Result<Vec<TimelineRow>, LoadError> {
    let earliest = windows.and_then(|w| w.iter().map(|x| x.start).min());
    let mut by: BTreeMap<u64, (TimelineRow, Option<Histogram<u64>>)> = BTreeMap::new();
    for (k, p) in parts.iter().enumerate() {
        let shift = match (windows, earliest) {
            (Some(w), Some(e)) => w[k].start.since(e).as_secs_f64().round() as u64,
            _ => 0,
        };
        for r in &p.timeline {
            let h = r
                .hdr_base64
                .as_deref()
                .map(plumb_model::decode_histogram)
                .transpose()
                .map_err(crate::error::histogram(
                    "a second's histogram does not decode",
                ))?;
            let second = r.second + shift;
            match by.get_mut(&second) {
                None => {
                    let mut row = r.clone();
                    row.second = second;
                    by.insert(second, (row, h));
                }
                Some((row, acc)) => {
                    row.ok += r.ok;
                    row.errors += r.errors;
                    row.max = row.max.max(r.max);
                    *acc = match (acc.take(), h) {
                        (Some(mut a), Some(b)) => {
                            a.add(&b)
                                .map_err(|e| combine_error("seconds do not combine", e))?;
                            Some(a)
                        }
                        _ => None,
                    };
                }
            }
        }
    }
    Ok(by
        .into_values()
        .map(|(mut row, h)| {
            match h {
                Some(h) if !h.is_empty() => {
                    let at = |p| Duration::from_micros(plumb_model::value_at_percentile(&h, p));
                    row.p50 = Some(at(50.0));
                    row.p99 = Some(at(99.0));
                    row.hdr_base64 = Some(plumb_model::encode_histogram(&h));
                }
                Some(_) => {}
                None => {
                    // Per-second percentiles do not combine from their summaries.
                    row.p50 = None;
                    row.p99 = None;
                    row.hdr_base64 = None;
                }
            }
            row
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LatencyHistogram;
    use plumb_model::quantity::Timestamp;

    fn part(values: &[f64], rate: f64, start: f64) -> (LoadInfo, Vec<f64>) {
        let mut h = LatencyHistogram::new();
        for &v in values {
            h.record_us(v);
        }
        let d = LatencyDistribution::from_histogram(h.inner());
        (
            LoadInfo {
                target_rate: Some(rate),
                achieved_rate: rate,
                duration: Duration::from_secs(10),
                errors: BTreeMap::from([("timeout".to_string(), 2)]),
                concurrency: 10,
                connections_opened: 3,
                mean_in_flight: 1.5,
                send_lateness: Some(d.clone()),
                timeline: vec![TimelineRow {
                    second: 0,
                    ok: values.len() as u64,
                    errors: 2,
                    p50: Some(Duration::from_micros(1)),
                    p99: Some(Duration::from_micros(2)),
                    max: Duration::from_micros(9),
                    hdr_base64: Some(d.hdr_base64.clone()),
                }],
                due: values.len() as u64 + 2,
                error_examples: BTreeMap::from([("timeout".to_string(), "late".to_string())]),
                retried: 1,
                body: ByteSize(2 * values.len() as u64),
                window: Some(MeasuredWindow {
                    start: Timestamp::from_unix_secs_f64(start),
                    end: Timestamp::from_unix_secs_f64(start + 10.0),
                }),
                ..LoadInfo::answered(d)
            },
            values.to_vec(),
        )
    }

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("a{i}.json")).collect()
    }

    #[test]
    fn counts_add_exactly_and_percentiles_match_one_histogram_of_everything() {
        let (a, va) = part(
            &(0..3000)
                .map(|i| 500.0 + (i * 37 % 4000) as f64)
                .collect::<Vec<_>>(),
            100.0,
            1000.0,
        );
        let (b, vb) = part(
            &(0..5000)
                .map(|i| 900.0 + (i * 91 % 90_000) as f64)
                .collect::<Vec<_>>(),
            200.0,
            1000.4,
        );
        let m = merge_load(&[&a, &b], &names(2)).unwrap();
        assert_eq!(m.ok, 8000);
        assert_eq!(m.errors["timeout"], 4);
        assert_eq!((m.due, m.retried), (8004, 2));
        assert_eq!((m.concurrency, m.connections_opened), (20, 6));
        // Windows 1000–1010 and 1000.4–1010.4: the union is 10.4 s, the offered rate
        // (100·10 + 200·10) / 10.4 and the achieved 8000 / 10.4.
        assert_eq!(m.duration, Duration::from_millis(10_400));
        assert!((m.target_rate.unwrap() - 3000.0 / 10.4).abs() < 1e-9);
        assert!((m.achieved_rate - 8000.0 / 10.4).abs() < 1e-9);
        let mut all = LatencyHistogram::new();
        for v in va.iter().chain(&vb) {
            all.record_us(*v);
        }
        let one = LatencyDistribution::from_histogram(all.inner());
        assert_eq!(m.latency.count, one.count);
        assert_eq!(m.latency.percentiles, one.percentiles);
        assert_eq!(m.latency.max, one.max);
        assert_eq!(m.timeline[0].ok, 8000);
        assert_eq!(
            m.timeline[0].p99,
            one.percentile("p99"),
            "seconds with histograms merge into true percentiles"
        );
    }

    #[test]
    fn the_same_result_twice_is_refused() {
        let (a, _) = part(&[100.0, 200.0], 10.0, 1000.0);
        let e = merge_load(&[&a, &a.clone()], &names(2)).err().unwrap();
        assert!(matches!(
            e,
            LoadError::Combine(CombineError::Duplicate { .. })
        ));
        assert!(
            e.to_string()
                .contains("a0.json and a1.json are the same result"),
            "{e}"
        );
    }

    #[test]
    fn runs_one_after_the_other_are_rated_over_the_union_of_their_windows() {
        let (a, _) = part(&[100.0; 1000], 100.0, 1000.0);
        let (b, _) = part(&[300.0; 1000], 100.0, 1012.0);
        let m = merge_load(&[&a, &b], &names(2)).unwrap();
        // Two 10 s windows apart: 20 s of union, 2000 answers: 100/s, not 200/s.
        assert!((m.achieved_rate - 100.0).abs() < 1e-9);
        assert!((m.target_rate.unwrap() - 100.0).abs() < 1e-9);
        assert_eq!(
            m.timeline.iter().map(|r| r.second).collect::<Vec<_>>(),
            [0, 12],
            "seconds on one wall clock"
        );
    }

    #[test]
    fn open_and_closed_do_not_merge() {
        let (a, _) = part(&[1.0, 2.0], 1.0, 0.0);
        let (mut b, _) = part(&[1.0, 3.0], 1.0, 0.0);
        b.mode = "closed".into();
        assert!(matches!(
            merge_load(&[&a, &b], &names(2)).err().unwrap(),
            LoadError::Combine(CombineError::MergeModes { .. })
        ));
    }
}
