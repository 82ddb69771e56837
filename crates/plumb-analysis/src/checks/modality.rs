use super::{key, sig4};
use plumb_model::{Benchmark, Diagnostic, DiagnosticCode, Metric, Severity};
use plumb_stats::{multimodality, Multimodality, DIP_P_FLOOR};

/// Below this many samples neither detector has the power to say anything; the rates
/// measured at 30 are in bench/results/modality.md.
pub const MIN_SAMPLES: usize = 20;

pub fn check(b: &Benchmark, metric: &Metric, values: &[f64]) -> Option<Diagnostic> {
    if values.len() < MIN_SAMPLES {
        return None;
    }
    let m = multimodality(values).ok()?;
    if !m.detected {
        return None;
    }
    let mut d = Diagnostic::new(
        DiagnosticCode::Multimodal,
        Severity::Warning,
        format!("{}: the mean describes no run ({})", shape(&m), figures(&m)),
    )
    .evidence("dip", sig4(m.dip.dip.dip))
    .evidence("dip_p", sig4(m.dip.p_value))
    .evidence("mvalue", sig4(m.mvalue.mvalue))
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

/// "bimodal: 70% of runs near one value, 30% near 2.01× it", modes relative to the lowest.
fn shape(m: &Multimodality) -> String {
    let Some(first) = m.modes.first().filter(|_| m.modes.len() >= 2) else {
        return "the distribution is not unimodal, but its modes overlap too much to be told apart"
            .into();
    };
    let what = if m.modes.len() == 2 {
        "bimodal"
    } else {
        "multimodal"
    };
    let rest: Vec<String> = m.modes[1..]
        .iter()
        .map(|x| {
            format!(
                "{:.0}% near {:.2}× it",
                100.0 * x.share,
                x.location / first.location
            )
        })
        .collect();
    format!(
        "{what}: {:.0}% of runs near one value, {}",
        100.0 * first.share,
        rest.join(", ")
    )
}

/// The dip test's p-value and the mValue with BenchmarkDotNet's word for it.
fn figures(m: &Multimodality) -> String {
    let p = if m.dip.p_value <= DIP_P_FLOOR {
        format!("dip test p < {DIP_P_FLOOR}")
    } else {
        format!("dip test p = {:.3}", m.dip.p_value)
    };
    format!("{p}; mValue {:.2}, {}", m.mvalue.mvalue, m.mvalue.label())
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

    #[test]
    fn evenly_spread_values_are_not_flagged() {
        let values: Vec<u64> = (0..100)
            .map(|i| 1_000_000 + (i * 37) % 100 * 1000)
            .collect();
        assert!(wall(&values).is_none());
    }
}
