//! The latency-from-generator check: a latency tail (p99, else p99.9) that is mostly the
//! generator's own lateness, not the server's, while the generator stayed within its lateness bound (so
//! generator-behind did not fire). A wrk user reads the latency p99 as the server's;
//! here it would be plumb's.
use super::LoadGates;
use plumb_model::finding::LatencyFromGenerator;
use plumb_model::{Diagnostic, LoadInfo, Severity};

/// The latency must pass the service time at that percentile by this factor to be "well
/// above" it.
const ABOVE_SERVICE: f64 = 2.0;
/// The generator's lateness must be at least this share of the latency there.
const MOSTLY: f64 = 0.5;

/// At p99, then p99.9: the first percentile whose latency is mostly the generator's.
pub fn check(l: &LoadInfo, gates: LoadGates) -> Option<Diagnostic> {
    let late = l.send_lateness.as_ref()?;
    // Past the bound, generator-behind already says the latencies include its delay.
    if late.percentile("p99")? > gates.max_lateness {
        return None;
    }
    let finding = ["p99", "p99.9"].into_iter().find_map(|p| {
        let (latency, service, lateness) = (
            l.latency.percentile(p)?,
            l.service.percentile(p)?,
            late.percentile(p)?,
        );
        let (t, s, g) = (
            latency.as_secs_f64(),
            service.as_secs_f64(),
            lateness.as_secs_f64(),
        );
        (t > ABOVE_SERVICE * s && g >= MOSTLY * t).then(|| LatencyFromGenerator {
            percentile: p.to_string(),
            latency,
            service,
            lateness,
        })
    })?;
    Some(Diagnostic::new(Severity::Warning, finding))
}

#[cfg(test)]
mod tests {
    use super::super::tests::dist;
    use super::*;
    use plumb_model::quantity::Duration;

    fn info(latency_us: u64, service_us: u64, lateness_us: u64) -> LoadInfo {
        LoadInfo {
            service: dist(&[service_us; 100]),
            send_lateness: Some(dist(&[lateness_us; 100])),
            ..LoadInfo::answered(dist(&[latency_us; 100]))
        }
    }

    #[test]
    fn a_tail_that_is_the_generator_s_is_said_with_its_figures() {
        // The case: latency p99 1.3 ms, service p99 87 µs, the rest lateness.
        let d = check(&info(1_300, 87, 1_210), LoadGates::default()).unwrap();
        let plumb_model::Finding::LatencyFromGenerator(f) = &d.finding else {
            panic!("{d:?}")
        };
        assert_eq!(d.severity, Severity::Warning);
        assert_eq!(f.percentile, "p99");
        assert!(f.latency >= Duration::from_micros(1_290));
        assert!(f.service <= Duration::from_micros(88));
    }

    #[test]
    fn a_tail_that_is_the_server_s_or_a_late_generator_is_not_this() {
        // The server's own tail: service time close to latency.
        assert!(check(&info(1_300, 1_200, 100), LoadGates::default()).is_none());
        // Latency well above service, but not because of the generator (waits).
        assert!(check(&info(1_300, 87, 200), LoadGates::default()).is_none());
        // Past the 5 ms bound: generator-behind's to say.
        assert!(check(&info(9_000, 87, 8_900), LoadGates::default()).is_none());
    }
}
