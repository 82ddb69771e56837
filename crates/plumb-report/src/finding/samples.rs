//! Words of the findings about one benchmark's samples: how many, how precise, their
//! shape, and whether fresh processes agree.
use super::Words;
use plumb_model::finding::{
    ColdStart, ColdWarmup, Drift, FailedRuns, HighCv, Launches, Multimodal, Outliers,
    TooFewSamples, WideCi,
};
use plumb_model::format::{number, percent, signed_percent};
use plumb_stats::{Modality, DIP_P_FLOOR};

pub fn too_few(x: &TooFewSamples) -> Words {
    let n = x.n;
    match (x.t_multiplier, x.t_multiplier_many) {
        (Some(t), Some(many)) => Words::new(format!(
            "only {n} samples: at {} confidence the interval is {}× σ/√n, against {} with many samples",
            x.level,
            number(t),
            number(many)
        ))
        .advice(format!("use at least {} runs (--min-runs)", x.wanted)),
        _ => Words::new(format!(
            "{n} sample(s): no spread, no confidence interval, no comparison"
        ))
        .advice(format!("run at least --min-runs {}", x.wanted)),
    }
}

pub fn wide_ci(x: &WideCi) -> Words {
    Words::new(format!(
        "the {} confidence interval is ±{} of the mean ({}): differences smaller than that cannot be seen",
        x.level,
        percent(x.relative_error),
        x.error
    ))
    .advice("more runs narrow it by √n; a quieter machine narrows the spread itself")
}

pub fn high_cv(x: &HighCv) -> Words {
    Words::new(format!(
        "noisy: the standard deviation is {} of the mean",
        percent(x.cv)
    ))
    .details(format!("std dev {}, MAD {}", x.std_dev, x.mad))
    .advice("see `plumb env` for noise sources; pin with taskset; close other programs")
}

pub fn outliers(x: &Outliers) -> Words {
    let handling = match x.dropped {
        Some(n) => format!("{n} upper outlier(s) dropped from the statistics on request (--drop-outliers); they remain in the raw samples"),
        None => "kept in the statistics".to_string(),
    };
    let runs: Vec<String> = x.run_indices.iter().map(usize::to_string).collect();
    Words::new(format!(
        "{} outlier(s) ({} low, {} high, {} beyond 3×IQR) = {} of runs; {handling}",
        x.count(),
        x.low,
        x.high,
        x.far,
        percent(x.count() as f64 / x.samples.max(1) as f64)
    ))
    .details(format!(
        "fences {} and {}; runs {}{}",
        x.lower_fence,
        x.upper_fence,
        runs.join(", "),
        if x.count() > runs.len() { ", …" } else { "" }
    ))
    .advice(if x.dropped.is_some() {
        "dropping outliers hides real costs (GC, page faults, interrupts); report both ways"
    } else {
        "high outliers are usually interference (interrupts, other processes); see which runs they were"
    })
}

pub fn multimodal(x: &Multimodal) -> Words {
    let message = if x.modes.len() >= 2 {
        format!("{}: the mean describes no run ({})", shape(x), figures(x))
    } else {
        format!(
            "the dip test rejects a single mode ({}), but the modes overlap too much to be told apart",
            figures(x)
        )
    };
    let modes: Vec<String> = x
        .modes
        .iter()
        .map(|m| format!("{} ({:.0}%)", m.location, 100.0 * m.share))
        .collect();
    Words::new(message)
        .details(format!("modes at {}", modes.join(", ")))
        .advice("look at the samples in run order: two code paths, caches hot or cold, CPU frequency steps, or two cores of different speed")
}

/// "bimodal: 70% of runs near one value, 30% near 2.01× it": modes relative to the
/// lowest when it is above zero, else their values in the metric's unit.
fn shape(x: &Multimodal) -> String {
    let what = if x.modes.len() == 2 {
        "bimodal"
    } else {
        "multimodal"
    };
    let first = &x.modes[0];
    let ratio = first.location.value > 0.0;
    let rest: Vec<String> = x.modes[1..]
        .iter()
        .map(|m| {
            let near = if ratio {
                format!("{:.2}× it", m.location.value / first.location.value)
            } else {
                m.location.to_string()
            };
            format!("{:.0}% near {near}", 100.0 * m.share)
        })
        .collect();
    let first_at = if ratio {
        "one value".to_string()
    } else {
        first.location.to_string()
    };
    format!(
        "{what}: {:.0}% of runs near {first_at}, {}",
        100.0 * first.share,
        rest.join(", ")
    )
}

/// The dip test's p-value, and the mValue with BenchmarkDotNet's word for it where it
/// has one (above 2.8).
fn figures(x: &Multimodal) -> String {
    let p = if x.dip_p <= DIP_P_FLOOR {
        format!("dip test p < {DIP_P_FLOOR}")
    } else {
        format!("dip test p = {:.3}", x.dip_p)
    };
    let m = Modality {
        mvalue: x.mvalue,
        bin_width: f64::NAN,
    };
    if x.mvalue > Modality::SEVERAL {
        format!("{p}; mValue {:.2}, {}", x.mvalue, m.label())
    } else {
        format!("{p}; mValue {:.2}", x.mvalue)
    }
}

pub fn drift(x: &Drift) -> Words {
    Words::new(format!(
        "times {} over the run (Mann-Kendall tau {:.2}, p {:.1e}); the second half averages {} vs the first",
        if x.tau > 0.0 { "rise" } else { "fall" },
        x.tau,
        x.p,
        signed_percent(x.half_change)
    ))
    .advice("not in steady state: thermal throttling, a background job, or growing state (files, caches) between runs; interleaving keeps ratios fair but absolute times are suspect")
}

pub fn cold_start(x: &ColdStart) -> Words {
    let why = match x.warmup_runs {
        None => "warm-up was off, so the cold start is in the samples".to_string(),
        Some(n) => format!("the warm-up ({n} runs) was not enough"),
    };
    Words::new(format!(
        "the first measured run took {:.1}× the median: {why}",
        x.first.value / x.median.value
    ))
    .details(format!("first {}, median {}", x.first, x.median))
    .advice("warm up longer (plumb run --warmup N; plumb-bench --warmup-cap TIME)")
}

pub fn cold_warmup(x: &ColdWarmup) -> Words {
    // No ratio: the median just past the fence would read "1.0× slower" (issue 24, 20).
    Words::new(format!(
        "warm-up runs were slower than the measured ones (their median {} lies above the measured runs' upper fence {}): cold state, absorbed by the {} warm-up runs",
        x.warmup_median, x.upper_fence, x.warmup_runs
    ))
}

pub fn failed_runs(x: &FailedRuns) -> Words {
    Words::new(format!(
        "{} of {} runs failed and were measured anyway",
        x.failed, x.runs
    ))
    .advice("a failing command may skip its work; check that it fails for the reason you expect")
}

pub fn launches(x: &Launches) -> Words {
    let (between, within) = (
        percent(x.between_sd.value / x.mean.value),
        percent(x.within_sd.value / x.mean.value),
    );
    if x.differ() {
        Words::new(format!(
            "the {} launches differ (one-way ANOVA F={:.1}, p={:.1e}): launch means spread {between} while samples within a launch spread {within}; the process itself (layout, ASLR) moves this result, and the Error is computed from launch means",
            x.launches, x.f, x.p
        ))
        .advice("compare runs made in launches on both sides (plumb-bench's default; not --launches 1 or --quick); more launches narrow the interval")
    } else {
        Words::new(format!(
            "{} launches agree (one-way ANOVA p={:.2}): launch means spread {between}, samples within a launch {within}",
            x.launches, x.p
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::finding::ModeShare;
    use plumb_model::{Amount, Unit};

    fn modes(at: &[(f64, f64)]) -> Multimodal {
        Multimodal {
            dip: 0.08,
            dip_p: 0.0005,
            mvalue: 3.4,
            mvalue_values: 100,
            modes: at
                .iter()
                .map(|&(ns, share)| ModeShare {
                    location: Amount::new(ns, Unit::Nanoseconds),
                    share,
                })
                .collect(),
        }
    }

    #[test]
    fn modes_are_said_relative_to_the_lowest_or_by_value_at_zero() {
        let two = multimodal(&modes(&[(1e7, 0.7), (2e7, 0.3)])).message;
        assert_eq!(two, "bimodal: 70% of runs near one value, 30% near 2.00× it: the mean describes no run (dip test p < 0.001; mValue 3.40, bimodal)");
        let at_zero = multimodal(&modes(&[(0.0, 0.71), (1003.0, 0.29)])).message;
        assert!(
            at_zero.starts_with("bimodal: 71% of runs near 0 s, 29% near 1.003 µs: the mean describes no run (dip test p < 0.001"),
            "{at_zero}"
        );
        let overlapping = multimodal(&modes(&[(1e7, 1.0)])).message;
        assert!(overlapping.contains("overlap too much"), "{overlapping}");
    }

    #[test]
    fn a_cold_start_blames_the_warmup_only_when_there_was_one() {
        let ns = |v| Amount::new(v, Unit::Nanoseconds);
        let mut c = ColdStart {
            first: ns(5000.0),
            median: ns(101.0),
            warmup_runs: Some(3),
        };
        assert_eq!(
            cold_start(&c).message,
            "the first measured run took 49.5× the median: the warm-up (3 runs) was not enough"
        );
        c.warmup_runs = None;
        assert!(cold_start(&c)
            .message
            .ends_with("warm-up was off, so the cold start is in the samples"));
    }
}
