//! The multimodality check: several modes in a benchmark's values, so the mean describes no run.
use super::amount;
use plumb_model::finding::{ModeShare, Multimodal};
use plumb_model::{Benchmark, Diagnostic, Metric, Severity};
use plumb_stats::multimodality;

/// Below this many samples neither detector has the power to say anything; the false
/// alarms measured from this size up are in bench/results/modality.md.
pub const MIN_SAMPLES: usize = 20;

pub fn check(b: &Benchmark, metric: &Metric, values: &[f64]) -> Option<Diagnostic> {
    if values.len() < MIN_SAMPLES {
        return None;
    }
    let m = multimodality(values).ok()?;
    if !m.detected {
        return None;
    }
    let modes = m
        .modes
        .iter()
        .map(|mode| ModeShare {
            location: amount(b, metric, mode.location),
            share: mode.share,
        })
        .collect();
    let finding = Multimodal {
        dip: m.dip.dip.dip,
        dip_p: m.dip.p_value,
        mvalue: m.mvalue.mvalue,
        mvalue_values: m.mvalue_values,
        modes,
    };
    Some(Diagnostic::new(Severity::Warning, finding))
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{Benchmark, BenchmarkKind, Metric};

    fn found(d: Option<Diagnostic>) -> Multimodal {
        match d.expect("a diagnostic").finding {
            plumb_model::Finding::Multimodal(m) => m,
            other => panic!("{other:?}"),
        }
    }

    fn wall(values: &[u64]) -> Option<Diagnostic> {
        let b = Benchmark::of_wall_times("x", BenchmarkKind::Command, values.iter().copied());
        let per_op = b.per_op(&Metric::WallTime);
        check(&b, &Metric::WallTime, &per_op)
    }

    /// 30 % of runs on a path twice as slow, in a fixed interleaving.
    #[test]
    fn a_slow_path_in_30_percent_of_runs_is_named() {
        let values: Vec<u64> = (0..100)
            .map(|i| {
                let jitter = (i * 37) % 11 * 1000;
                if i % 10 < 3 {
                    20_000_000 + jitter
                } else {
                    10_000_000 + jitter
                }
            })
            .collect();
        let m = found(wall(&values));
        assert_eq!(m.modes.len(), 2, "{m:?}");
        assert!((m.modes[0].share - 0.7).abs() < 0.005, "{m:?}");
        let ratio = m.modes[1].location.value / m.modes[0].location.value;
        assert!((ratio - 2.0).abs() < 0.005, "{m:?}");
        assert!(m.dip_p <= plumb_stats::DIP_P_FLOOR, "{m:?}");
    }

    /// Corrected times whose fast mode sits at zero (the correction took all of it): no
    /// ratio to zero, the modes' values instead.
    #[test]
    fn modes_at_zero_are_named_by_value() {
        let b = Benchmark::of_wall_times("x", BenchmarkKind::Command, [1]);
        let values: Vec<f64> = (-35..=35)
            .map(f64::from)
            .chain((0..29).map(|i| 1000.0 + f64::from(i % 7)))
            .collect();
        let m = found(check(&b, &Metric::WallTime, &values));
        assert_eq!(m.modes.len(), 2, "{m:?}");
        assert!(m.modes[0].location.value.abs() < 1.0, "{m:?}");
        assert!((m.modes[1].location.value - 1003.0).abs() < 1.0, "{m:?}");
        assert_eq!(m.modes[1].location.unit, plumb_model::Unit::Nanoseconds);
        assert!((m.modes[0].share - 0.71).abs() < 0.005, "{m:?}");
    }

    #[test]
    fn evenly_spread_values_are_not_flagged() {
        let values: Vec<u64> = (0..100)
            .map(|i| 1_000_000 + (i * 37) % 100 * 1000)
            .collect();
        assert!(wall(&values).is_none());
    }
}
