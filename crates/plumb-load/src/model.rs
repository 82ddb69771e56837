//! Load results in the shared result model. Histograms travel whole (HdrHistogram V2
//! deflate, base64), so results from many agents can later be merged without loss.

use crate::http::LoadReport;
use crate::LatencyHistogram;
use crate::LoadError;
#[cfg(test)]
use crate::PERCENTILES;
use base64::Engine;
use plumb_model::quantity::Timestamp;
use plumb_model::{LatencyDistribution, LoadInfo, MeasuredWindow, TimelineRow};

pub fn distribution(h: &LatencyHistogram) -> LatencyDistribution {
    LatencyDistribution::from_histogram(h.inner())
}

/// The histogram inside a distribution.
pub fn decode(d: &LatencyDistribution) -> Result<LatencyHistogram, LoadError> {
    let h = d.histogram().map_err(crate::error::histogram(
        "a result's histogram does not decode",
    ))?;
    let mut out = LatencyHistogram::new();
    out.add_hdr(&h)?;
    Ok(out)
}

pub fn load_info(
    r: &LoadReport,
    mode: &str,
    target_rate: Option<f64>,
    concurrency: usize,
) -> LoadInfo {
    LoadInfo {
        mode: mode.to_string(),
        target_rate,
        achieved_rate: r.achieved_rate(),
        duration: r.measured,
        ok: r.ok,
        errors: r.errors.clone(),
        concurrency,
        connections_opened: r.connections,
        mean_in_flight: r.mean_in_flight(),
        latency: distribution(&r.latency),
        service: distribution(&r.service),
        send_lateness: r.lateness.as_ref().map(distribution),
        timeline: r
            .timeline
            .iter()
            .map(|s| TimelineRow {
                second: s.second,
                ok: s.ok,
                errors: s.errors,
                p50: Some(s.p50),
                p99: Some(s.p99),
                max: s.max,
                hdr_base64: Some(base64::engine::general_purpose::STANDARD.encode(&s.hdr)),
            })
            .collect(),
        due: r.due,
        error_examples: r.examples.clone(),
        slot_waits: r.slot_waits,
        retried: r.retried,
        abandoned: r.abandoned,
        body: r.body,
        threads: r.threads,
        agents: 1,
        generator_busy: Some(r.busy),
        window: r.measured_from.map(|t| {
            let start = Timestamp::from(t);
            MeasuredWindow {
                start,
                end: start.plus(r.measured),
            }
        }),
        runs: Vec::new(),
        setup: r.setup.record(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distributions_round_trip_losslessly() {
        let mut h = LatencyHistogram::new();
        for v in 0..10_000u64 {
            h.record_us((v * 7919 % 250_000) as f64 + 1.0);
        }
        let d = distribution(&h);
        assert_eq!(d.count, 10_000);
        let back = decode(&d).unwrap();
        assert_eq!(back.count(), h.count());
        for (_, p) in PERCENTILES {
            assert_eq!(back.percentile_us(p), h.percentile_us(p));
        }
        assert!(decode(&LatencyDistribution {
            hdr_base64: "!!".into(),
            ..d
        })
        .is_err());
    }
}
