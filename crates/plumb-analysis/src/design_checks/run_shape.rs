//! The run's shape: too short for a write-heavy store to reach steady state, no warm-up,
//! a closed loop asked for a percentile, too few samples for the percentile, too little
//! concurrency for the rate (Little's law), the generator on the target, one launch.
use plumb_model::finding::{
    ClosedLoopPercentile, ConcurrencyBelowLittle, GeneratorOnTarget, NoWarmup, OneLaunch,
    TooFewForPercentile, TooShortToSteady,
};
use plumb_model::quantity::ByteSize;
use plumb_model::{Arrival, Design, Finding, GeneratorPlace, Question};

/// A write-heavy design should write at least this many times its data in one run.
pub const STEADY_WRITES: f64 = 3.0;
/// Samples beyond a percentile below which it is decided by a handful of values.
pub const BEYOND_PERCENTILE: f64 = 10.0;
/// The write share from which a workload is write-heavy.
const WRITE_HEAVY: f64 = 0.5;

/// Operations a run offers: rate × duration, where both are declared (an open loop).
fn operations(d: &Design) -> Option<f64> {
    match d.arrival? {
        Arrival::Open { rate } => Some(rate.per_second() * d.duration?.as_secs_f64()),
        Arrival::Closed => None,
    }
}

pub fn too_short_to_steady(d: &Design) -> Option<Finding> {
    let mix = d.mix?;
    if mix.write_share() < WRITE_HEAVY {
        return None;
    }
    let (data, _) = d.working_set_bytes()?;
    let value = d.value_size.as_ref()?.mean_bytes();
    let written = operations(d)? * mix.write_share() * value;
    (written < STEADY_WRITES * data.0 as f64).then(|| {
        TooShortToSteady {
            written: ByteSize(written as u64),
            data,
            times: STEADY_WRITES,
        }
        .into()
    })
}

pub fn no_warmup(d: &Design) -> Option<Finding> {
    d.warmup.filter(|w| w.is_zero()).map(|_| NoWarmup {}.into())
}

pub fn closed_loop_percentile(d: &Design) -> Option<Finding> {
    let Some(Question::Worst(percentile)) = d.question else {
        return None;
    };
    matches!(d.arrival, Some(Arrival::Closed)).then(|| ClosedLoopPercentile { percentile }.into())
}

pub fn too_few_for_percentile(d: &Design) -> Option<Finding> {
    let percentile = d.question?.percentile()?;
    too_few(percentile, operations(d)?).map(Finding::from)
}

/// The finding when `samples` leave fewer than 10 beyond `percentile` (also what a
/// verdict by that question refuses on).
pub fn too_few(percentile: f64, samples: f64) -> Option<TooFewForPercentile> {
    // Rounded to a millionth: 10,000 × (1 − 0.999) is 10, not 9.999999999999.
    let beyond = (samples * (100.0 - percentile) * 1e4).round() / 1e6;
    (beyond < BEYOND_PERCENTILE).then_some(TooFewForPercentile {
        percentile,
        samples,
        beyond,
        needed: BEYOND_PERCENTILE,
    })
}

pub fn concurrency_below_little(d: &Design) -> Option<Finding> {
    let Some(Arrival::Open { rate }) = d.arrival else {
        return None;
    };
    let latency = d.latency?;
    let threads = d.threads?;
    let needed = rate.per_second() * latency.as_secs_f64();
    (f64::from(threads) < needed).then(|| {
        ConcurrencyBelowLittle {
            rate: rate.per_second(),
            latency,
            needed,
            threads,
        }
        .into()
    })
}

pub fn generator_on_target(d: &Design) -> Option<Finding> {
    (d.generator == Some(GeneratorPlace::SameMachine))
        .then(|| GeneratorOnTarget { target: None }.into())
}

pub fn one_launch(d: &Design) -> Option<Finding> {
    (d.launches == Some(1)).then(|| OneLaunch {}.into())
}
