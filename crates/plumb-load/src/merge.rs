//! Combining the results of agents that loaded one target at the same time: counts and
//! rates add, histograms add losslessly (so merged percentiles equal those of one
//! histogram fed every value), per-second rows add their counts.

use plumb_model::{LatencyDistribution, LoadInfo, TimelineRow};
use std::collections::BTreeMap;

fn add(parts: &[&LatencyDistribution]) -> Result<LatencyDistribution, String> {
    let mut total = parts[0].histogram()?;
    for p in &parts[1..] {
        total
            .add(p.histogram()?)
            .map_err(|e| format!("histograms do not combine: {e:?}"))?;
    }
    Ok(LatencyDistribution::from_histogram(&total))
}

pub fn merge_load(parts: &[&LoadInfo]) -> Result<LoadInfo, String> {
    let first = parts.first().ok_or("nothing to merge")?;
    if let Some(p) = parts.iter().find(|p| p.mode != first.mode) {
        return Err(format!(
            "cannot merge {} loop with {} loop results",
            first.mode, p.mode
        ));
    }
    let lat: Vec<&LatencyDistribution> = parts.iter().map(|p| &p.latency).collect();
    let svc: Vec<&LatencyDistribution> = parts.iter().map(|p| &p.service).collect();
    let late: Option<Vec<&LatencyDistribution>> =
        parts.iter().map(|p| p.send_lateness.as_ref()).collect();
    let mut errors = BTreeMap::new();
    for p in parts {
        for (k, v) in &p.errors {
            *errors.entry(k.clone()).or_insert(0) += v;
        }
    }
    let mut seconds: BTreeMap<u64, TimelineRow> = BTreeMap::new();
    for p in parts {
        for r in &p.timeline {
            let e = seconds.entry(r.second).or_insert(TimelineRow {
                second: r.second,
                ok: 0,
                errors: 0,
                p50_us: f64::NAN,
                p99_us: f64::NAN,
                max_us: 0.0,
            });
            e.ok += r.ok;
            e.errors += r.errors;
            e.max_us = e.max_us.max(r.max_us);
        }
    }
    let sum = |f: fn(&LoadInfo) -> f64| parts.iter().map(|p| f(p)).sum::<f64>();
    Ok(LoadInfo {
        mode: first.mode.clone(),
        target_rate: parts.iter().map(|p| p.target_rate).sum(),
        achieved_rate: sum(|p| p.achieved_rate),
        duration_s: parts.iter().map(|p| p.duration_s).fold(0.0, f64::max),
        ok: parts.iter().map(|p| p.ok).sum(),
        errors,
        concurrency: parts.iter().map(|p| p.concurrency).sum(),
        connections_opened: parts.iter().map(|p| p.connections_opened).sum(),
        mean_in_flight: sum(|p| p.mean_in_flight),
        latency: add(&lat)?,
        service: add(&svc)?,
        send_lateness: late.map(|l| add(&l)).transpose()?,
        timeline: seconds.into_values().collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LatencyHistogram;

    fn part(values: &[f64], rate: f64) -> (LoadInfo, Vec<f64>) {
        let mut h = LatencyHistogram::new();
        for &v in values {
            h.record_us(v);
        }
        let d = LatencyDistribution::from_histogram(h.inner());
        (
            LoadInfo {
                mode: "open".into(),
                target_rate: Some(rate),
                achieved_rate: rate,
                duration_s: 10.0,
                ok: values.len() as u64,
                errors: BTreeMap::from([("timeout".to_string(), 2)]),
                concurrency: 10,
                connections_opened: 3,
                mean_in_flight: 1.5,
                latency: d.clone(),
                service: d.clone(),
                send_lateness: Some(d),
                timeline: vec![TimelineRow {
                    second: 0,
                    ok: values.len() as u64,
                    errors: 2,
                    p50_us: 1.0,
                    p99_us: 2.0,
                    max_us: 9.0,
                }],
            },
            values.to_vec(),
        )
    }

    #[test]
    fn counts_add_exactly_and_percentiles_match_one_histogram_of_everything() {
        let (a, va) = part(
            &(0..3000)
                .map(|i| 500.0 + (i * 37 % 4000) as f64)
                .collect::<Vec<_>>(),
            100.0,
        );
        let (b, vb) = part(
            &(0..5000)
                .map(|i| 900.0 + (i * 91 % 90_000) as f64)
                .collect::<Vec<_>>(),
            200.0,
        );
        let m = merge_load(&[&a, &b]).unwrap();
        assert_eq!(m.ok, 8000);
        assert_eq!(m.errors["timeout"], 4);
        assert_eq!(m.target_rate, Some(300.0));
        assert_eq!((m.concurrency, m.connections_opened), (20, 6));
        let mut all = LatencyHistogram::new();
        for v in va.iter().chain(&vb) {
            all.record_us(*v);
        }
        let one = LatencyDistribution::from_histogram(all.inner());
        assert_eq!(m.latency.count, one.count);
        assert_eq!(m.latency.percentiles_us, one.percentiles_us);
        assert_eq!(m.latency.max_us, one.max_us);
        assert_eq!(m.timeline[0].ok, 8000);
        assert!(
            m.timeline[0].p99_us.is_nan(),
            "per-second percentiles do not merge from summaries"
        );
    }

    #[test]
    fn open_and_closed_do_not_merge() {
        let (a, _) = part(&[1.0, 2.0], 1.0);
        let mut b = a.clone();
        b.mode = "closed".into();
        assert!(merge_load(&[&a, &b]).unwrap_err().contains("cannot merge"));
    }
}
