//! The dead-code check ("nothing measured?"): per-operation times whose ranks cannot be
//! told from an empty body's (Mann–Whitney, robust to the rare slow sample a real
//! routine may have), or a median per call below one CPU cycle.
use plumb_model::finding::NothingMeasured;
use plumb_model::quantity::{Confidence, Duration};
use plumb_model::{Amount, Benchmark, Diagnostic, ResultDocument, Severity, Unit};

/// The clock assumed when neither the TSC nor `/proc/cpuinfo` gave one: a cycle at this
/// rate is shorter than any real machine's, so nothing is called dead for its sake.
const ONE_CYCLE_FALLBACK_GHZ: f64 = 5.0;

pub fn check(b: &Benchmark, cycle: Duration, level: Confidence) -> Option<Diagnostic> {
    let times = b.analysed_times_ns();
    if times.len() < 2 {
        return None;
    }
    let info = b.function()?;
    let ops = info.ops_per_iter.max(1) as f64;
    // The empty body's samples are per call of the routine.
    let empty: Vec<f64> = info
        .empty_body_samples
        .iter()
        .map(|d| d.as_nanos_f64() / ops)
        .collect();
    let median = plumb_stats::Summary::of(&times).ok()?.median;
    let empty = Some(empty.as_slice()).filter(|e| e.len() >= 2);
    let same_as_empty = empty
        .and_then(|e| plumb_stats::mann_whitney_u(&times, e).ok())
        .is_some_and(|t| t.p >= level.alpha());
    let ns = |v: f64| Amount::new(v, Unit::Nanoseconds);
    let finding = if same_as_empty {
        let empty_median = plumb_stats::Summary::of(empty?).ok()?.median;
        NothingMeasured::LikeEmptyBody {
            median_per_op: ns(median),
            empty_body_median: ns(empty_median),
        }
    } else if median * ops < cycle.as_nanos_f64() {
        // A cycle is compared with the time of one call of the routine, not of one of
        // its operations: a vectorised routine can do many operations in a cycle.
        NothingMeasured::BelowOneCycle {
            median_per_op: ns(median),
            cycle,
        }
    } else {
        return None;
    };
    Some(Diagnostic::new(Severity::Warning, finding))
}

/// One cycle of this machine's CPU: the TSC's calibrated rate, else the clock
/// `/proc/cpuinfo` reports, else a fallback.
pub fn one_cycle(doc: &ResultDocument) -> Duration {
    let ghz = doc
        .clock
        .as_ref()
        .and_then(|c| c.tsc_frequency.map(|f| f.per_nanosecond()))
        .or(doc.environment.cpu_mhz.map(|m| m / 1000.0))
        .filter(|g| *g > 0.1)
        .unwrap_or(ONE_CYCLE_FALLBACK_GHZ);
    Duration::from_nanos_f64(1.0 / ghz)
}

#[cfg(test)]
mod tests {
    use super::super::tests::function;
    use super::*;
    use plumb_model::Finding;

    fn found(b: &Benchmark) -> Option<NothingMeasured> {
        let cycle = Duration::from_picos(250);
        match check(b, cycle, Confidence::DEFAULT)?.finding {
            Finding::NothingMeasured(n) => Some(n),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn below_a_cycle_or_like_an_empty_body_is_nothing_measured() {
        let below = found(&function("deleted", &[1e-6; 20], 0.0)).unwrap();
        assert!(
            matches!(below, NothingMeasured::BelowOneCycle { .. }),
            "{below:?}"
        );
        // 0.3 ns per op with an empty body of 0.3 ns: the same ranks.
        let times: Vec<f64> = (0..12).map(|i| 0.3 + 0.001 * (i % 3) as f64).collect();
        let like = found(&function("empty", &times, 0.3)).unwrap();
        assert!(
            matches!(like, NothingMeasured::LikeEmptyBody { .. }),
            "{like:?}"
        );
        let real: Vec<f64> = (0..20).map(|i| 5.0 + 0.01 * i as f64).collect();
        assert!(found(&function("real", &real, 0.3)).is_none());
    }
}
