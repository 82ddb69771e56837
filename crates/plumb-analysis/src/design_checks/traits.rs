//! The workload's traits that production rarely shares: sequential keys, one thread,
//! fixed-size values, no durability, a fresh store every run. Each is a red flag unless
//! production is declared with the same trait.
use plumb_model::finding::{
    CleanState, FixedSizeValues, NoDurability, SequentialKeys, SingleThread,
};
use plumb_model::{
    Design, Durability, Finding, KeyDistribution, SizeDistribution, StateBetweenRuns,
};

pub fn sequential_keys(d: &Design, production: Option<&Design>) -> Option<Finding> {
    let sequential = |k: Option<KeyDistribution>| matches!(k, Some(KeyDistribution::Sequential));
    let production_keys = production.and_then(|p| p.keys);
    (sequential(d.keys) && !sequential(production_keys)).then(|| {
        SequentialKeys {
            production: production_keys.map(|k| k.to_string()),
        }
        .into()
    })
}

pub fn single_thread(d: &Design, production: Option<&Design>) -> Option<Finding> {
    let production_threads = production.and_then(|p| p.threads);
    (d.threads == Some(1) && production_threads != Some(1)).then(|| {
        SingleThread {
            production: production_threads,
        }
        .into()
    })
}

pub fn fixed_size_values(d: &Design, production: Option<&Design>) -> Option<Finding> {
    let fixed = |s: &Option<SizeDistribution>| s.clone().filter(SizeDistribution::is_fixed);
    let production_fixed = production.and_then(|p| fixed(&p.value_size)).is_some();
    let size = fixed(&d.value_size)?;
    (!production_fixed).then(|| {
        FixedSizeValues {
            size: plumb_model::quantity::ByteSize(size.mean_bytes() as u64),
        }
        .into()
    })
}

/// Only where the design writes (a mix with writes, or none declared) and says it does
/// not make them durable.
pub fn no_durability(d: &Design, production: Option<&Design>) -> Option<Finding> {
    let writes = d.mix.is_none_or(|m| m.write_share() > 0.0);
    let production_durability = production.and_then(|p| p.durability);
    let none = |x: Option<Durability>| x == Some(Durability::None);
    (writes && none(d.durability) && !none(production_durability)).then(|| {
        NoDurability {
            production: production_durability.map(|p| p.to_string()),
        }
        .into()
    })
}

pub fn clean_state(d: &Design, production: Option<&Design>) -> Option<Finding> {
    let fresh = |s: Option<StateBetweenRuns>| s == Some(StateBetweenRuns::Fresh);
    (fresh(d.state) && !fresh(production.and_then(|p| p.state))).then(|| CleanState {}.into())
}
