//! The multimodality check: several modes in a benchmark's values, so the mean describes no run.
use super::{key, sig4};
use plumb_model::{Benchmark, Diagnostic, DiagnosticCode, Metric, Severity, Unit};
use plumb_stats::{multimodality, Modality, Mode, Multimodality, DIP_P_FLOOR};

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
    let unit = b.metrics.get(metric).map(|i| i.unit);
    let message = if m.modes.len() >= 2 {
        format!(
            "{}: the mean describes no run ({})",
            shape(&m, unit),
            figures(&m)
        )
    } else {
        format!(
            "the dip test rejects a single mode ({}), but the modes overlap too much to be told apart",
            figures(&m)
        )
    };
    let mut d = Diagnostic::new(DiagnosticCode::Multimodal, Severity::Warning, message)
        .evidence("dip", sig4(m.dip.dip.dip))
        .evidence("dip_p", sig4(m.dip.p_value))
        .evidence("mvalue", sig4(m.mvalue.mvalue))
        .evidence("mvalue_values", m.mvalue_values as f64)
        .evidence("modes", m.modes.len() as f64);
    for (i, mode) in m.modes.iter().enumerate() {
        d = d
            .evidence(
                &key(b, metric, &format!("mode{}", i + 1)),
                sig4(mode.location),
            )
            .evidence(&format!("mode{}_share", i + 1), sig4(mode.share));
    }
    Some(d.advice("look at the samples in run order: two code paths, caches hot or cold, CPU frequency steps, or two cores of different speed"))
}

/// "bimodal: 70% of runs near one value, 30% near 2.01× it": modes relative to the
/// lowest when it is above zero, else their values in the metric's unit.
fn shape(m: &Multimodality, unit: Option<Unit>) -> String {
    let what = if m.modes.len() == 2 {
        "bimodal"
    } else {
        "multimodal"
    };
    let first = m.modes[0];
    let near = |x: &Mode| {
        if first.location > 0.0 {
            format!("{:.2}× it", x.location / first.location)
        } else {
            value(x.location, unit)
        }
    };
    let rest: Vec<String> = m.modes[1..]
        .iter()
        .map(|x| format!("{:.0}% near {}", 100.0 * x.share, near(x)))
        .collect();
    let first_at = if first.location > 0.0 {
        "one value".to_string()
    } else {
        value(first.location, unit)
    };
    format!(
        "{what}: {:.0}% of runs near {first_at}, {}",
        100.0 * first.share,
        rest.join(", ")
    )
}

/// A mode's location in its metric's unit, as every table writes it (a mode near 1003 ns
/// reads `1.003 µs`, as the table's column does).
fn value(x: f64, unit: Option<Unit>) -> String {
    plumb_model::format::value(unit.unwrap_or(Unit::Count), x)
}

/// The dip test's p-value, and the mValue with BenchmarkDotNet's word for it where it
/// has one (above 2.8).
fn figures(m: &Multimodality) -> String {
    let p = if m.dip.p_value <= DIP_P_FLOOR {
        format!("dip test p < {DIP_P_FLOOR}")
    } else {
        format!("dip test p = {:.3}", m.dip.p_value)
    };
    let mv = m.mvalue.mvalue;
    if mv > Modality::SEVERAL {
        format!("{p}; mValue {mv:.2}, {}", m.mvalue.label())
    } else {
        format!("{p}; mValue {mv:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{Benchmark, BenchmarkKind, Metric};

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
        let d = wall(&values).expect("a diagnostic");
        assert!(
            d.message.starts_with("bimodal: 70% of runs near one value, 30% near 2.00× it: the mean describes no run (dip test p < 0.001; mValue "),
            "{}",
            d.message
        );
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
        let d = check(&b, &Metric::WallTime, &values).expect("a diagnostic");
        assert!(
            d.message.starts_with("bimodal: 71% of runs near 0 s, 29% near 1.003 µs: the mean describes no run (dip test p < 0.001"),
            "{}",
            d.message
        );
    }

    #[test]
    fn evenly_spread_values_are_not_flagged() {
        let values: Vec<u64> = (0..100)
            .map(|i| 1_000_000 + (i * 37) % 100 * 1000)
            .collect();
        assert!(wall(&values).is_none());
    }
}
