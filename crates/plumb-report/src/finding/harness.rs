//! Words of the findings only the in-process harness makes: failures, results that
//! differ, suspicious speed-ups, allocation, warm-up, working sets, noise between
//! identical variants, short samples and missed precision targets.
use super::Words;
use plumb_model::finding::{
    Allocates, CheckTheWork, Failed, Imprecise, NoSteadyState, Noise, ShortSamples, WorkingSet,
    WrongResult,
};
use plumb_model::format::{self, percent};
use plumb_model::{PrecisionStop, Unit};

pub fn failed(x: &Failed) -> Words {
    Words::new(format!("the benchmark failed: {}", x.reason))
}

pub fn wrong_result(x: &WrongResult) -> Words {
    let words = Words::new(format!(
        "returns {} but {} returns {}: it does not compute the same thing",
        short(&x.result),
        x.reference,
        short(&x.expected)
    ));
    if short(&x.result) == x.result && short(&x.expected) == x.expected {
        words
    } else {
        words.details(format!("result {}; expected {}", x.result, x.expected))
    }
}

fn short(s: &str) -> String {
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s.to_string()
    }
}

pub fn result_unchecked() -> Words {
    Words::new("the group declares same_result but this variant did not use iter_checked")
}

pub fn check_the_work(x: &CheckTheWork) -> Words {
    Words::new(format!(
        "{:.1}× faster than {}: if a change makes a routine 2× faster, check that it still does the work",
        1.0 / x.ratio,
        x.baseline
    ))
    .advice("compare results (same_result + iter_checked), and the inputs: sorted data, a smaller table, a skipped branch")
}

pub fn allocates(x: &Allocates) -> Words {
    Words::new(format!(
        "allocates {} times ({}) per operation inside the timed loop: the allocator is part of what is measured",
        format::count(x.allocations_per_op),
        format::value(Unit::Bytes, x.bytes_per_op)
    ))
    .advice("preallocate in setup (or iter_batched) if the allocation is not the subject")
}

pub fn no_steady_state(x: &NoSteadyState) -> Words {
    Words::new(format!(
        "warm-up did not reach a steady state in {}: successive windows still differed by more than 2 %",
        format::time(x.warmup)
    ))
    .advice("raise --warmup-cap, or look for state that grows between iterations")
}

pub fn no_warmup() -> Words {
    Words::new("warm-up was disabled: cold iterations are in the samples")
}

pub fn working_set(x: &WorkingSet) -> Words {
    Words::new(format!(
        "the working set ({}) exceeds the {} ({}): this measures memory, not cache",
        format::bytes(x.working_set),
        x.cache,
        format::bytes(x.cache_size)
    ))
    .advice("compare with sizes below each cache level (plumb_bench::sizes_across_caches)")
}

pub fn noise(x: &Noise) -> Words {
    let message = match x.ratio_ci {
        Some(ci) if !x.apart() => format!(
            "identical code could not be shown equivalent to {}: the ratio could be anywhere in ×{:.3}–×{:.3}, wider than the ±{} that matters; the machine's noise hides smaller differences",
            x.baseline, ci.lo, ci.hi, x.sesoi
        ),
        _ => format!(
            "identical code measured {:+.1}% apart from {} (verdict {}): that is the machine's noise",
            100.0 * (x.ratio - 1.0),
            x.baseline,
            x.verdict
        ),
    };
    Words::new(message)
        .advice("pin the process (--pin), quieten the machine (plumb env), or run more samples")
}

pub fn short_samples(x: &ShortSamples) -> Words {
    Words::new(format!(
        "samples last {} (median), under the {} the clock needs: its resolution and read cost are part of each figure",
        format::time(x.median),
        format::time(x.min_sample)
    ))
    .advice("make the setup cheaper, or time several operations per input (ops_per_iter)")
}

pub fn imprecise(x: &Imprecise) -> Words {
    let cap = if x.stop == PrecisionStop::SampleCap {
        "sample cap"
    } else {
        "time cap"
    };
    Words::new(format!(
        "sampling stopped at the {cap} after {} of samples with the mean known to ±{} (batch means, {}), short of the ±{} target: the times vary too much for it (a noisy routine, or a machine that changed speed during the run)",
        format::time(x.spent),
        percent(x.error),
        x.level,
        percent(x.target.get()),
    ))
    .advice("raise --max-measure-time, quieten the machine (plumb env), or repeat in fresh processes (--launches)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::quantity::{Confidence, Duration, Fraction};
    use plumb_model::{Interval, Verdict};

    fn identical(verdict: Verdict, ratio: f64, lo: f64, hi: f64) -> String {
        noise(&Noise {
            baseline: "g/a".into(),
            verdict,
            ratio,
            ratio_ci: Some(Interval { lo, hi }),
            sesoi: Fraction::DEFAULT_SESOI,
        })
        .message
    }

    #[test]
    fn identical_variants_apart_or_unsettled_are_the_machines_noise() {
        let apart = identical(Verdict::Slower, 1.048, 1.031, 1.066);
        assert!(
            apart.contains("+4.8% apart from g/a (verdict slower)"),
            "{apart}"
        );
        let real = identical(Verdict::Inconclusive, 1.032, 1.006, 1.058);
        assert!(real.contains("+3.2% apart"), "{real}");
        let wide = identical(Verdict::Inconclusive, 1.42, 0.784, 2.061);
        assert!(
            wide.contains("×0.784–×2.061, wider than the ±2% that matters"),
            "{wide}"
        );
    }

    #[test]
    fn a_missed_target_says_the_cap_the_error_and_the_target() {
        let m = imprecise(&Imprecise {
            stop: PrecisionStop::TimeCap,
            spent: Duration::from_nanos(101_900_000),
            error: 0.05,
            target: Fraction::new(0.02).unwrap(),
            level: Confidence::DEFAULT,
        })
        .message;
        assert!(m.starts_with("sampling stopped at the time cap after 101.9 ms of samples with the mean known to ±5.0% (batch means, 99.9%), short of the ±2.0% target"), "{m}");
    }
}
