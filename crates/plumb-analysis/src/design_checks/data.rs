//! The data against this machine: a working set that fits in the last-level cache, one
//! that fits in memory while production's does not, and a skewed distribution's hot set
//! that fits in cache though the data does not.
use plumb_model::finding::{HotSetInCache, WorkingSetInCache, WorkingSetInMemory};
use plumb_model::quantity::ByteSize;
use plumb_model::{CacheLevel, Design, Environment, Finding, KeyDistribution};

/// The share of accesses whose items make up the hot set.
pub const HOT_SHARE: f64 = 0.9;

fn cache_name(c: &CacheLevel) -> String {
    format!("L{} cache", c.level)
}

pub fn working_set_in_cache(
    d: &Design,
    production: Option<&Design>,
    env: &Environment,
) -> Option<Finding> {
    let (ws, estimated) = d.working_set_bytes()?;
    let llc = env.last_level_cache()?;
    let production_ws = production
        .and_then(|p| p.working_set_bytes())
        .map(|(b, _)| b);
    let fits = |b: ByteSize| b <= llc.size;
    (fits(ws) && !production_ws.is_some_and(fits)).then(|| {
        WorkingSetInCache {
            working_set: ws,
            estimated,
            cache: cache_name(llc),
            cache_size: llc.size,
            production: production_ws,
        }
        .into()
    })
}

/// Only where production's working set is declared and is larger than this machine's
/// memory: a design smaller than memory is otherwise no lie about the disk.
pub fn working_set_in_memory(
    d: &Design,
    production: Option<&Design>,
    env: &Environment,
) -> Option<Finding> {
    let (ws, estimated) = d.working_set_bytes()?;
    let memory = env.memory?;
    let (production_ws, _) = production?.working_set_bytes()?;
    let in_cache = env.last_level_cache().is_some_and(|c| ws <= c.size);
    (ws <= memory && production_ws > memory && !in_cache).then(|| {
        WorkingSetInMemory {
            working_set: ws,
            estimated,
            memory,
            production: production_ws,
        }
        .into()
    })
}

/// The smallest set of most popular items that takes 90 % of accesses (ζ(k, θ) /
/// ζ(n, θ) ≥ 0.9), times the record size, against the last-level cache — only where the
/// whole working set does not fit already (then `working-set-in-cache` says more). A
/// scrambled Zipfian spreads those items over the key space but keeps their number.
pub fn hot_set_in_cache(
    d: &Design,
    production: Option<&Design>,
    env: &Environment,
) -> Option<Finding> {
    let hot = hot_set(d, env)?;
    let production_hot = production
        .map(|p| d.overlaid(p))
        .and_then(|p| hot_set(&p, env));
    production_hot.is_none().then(|| hot.into())
}

fn hot_set(d: &Design, env: &Environment) -> Option<HotSetInCache> {
    let (distribution, theta) = match d.keys? {
        KeyDistribution::Zipfian { theta, .. } => ("Zipfian", theta),
        KeyDistribution::Latest { theta } => ("latest", theta),
        _ => return None,
    };
    let records = d.records?;
    let record = d.record_bytes()?;
    let llc = env.last_level_cache()?;
    let (ws, _) = d.working_set_bytes()?;
    if ws <= llc.size {
        return None;
    }
    let hot_items = plumb_stats::zipf_hot_items(records, theta, HOT_SHARE);
    let hot_set = ByteSize((hot_items as f64 * record) as u64);
    (hot_set <= llc.size).then(|| HotSetInCache {
        distribution: distribution.into(),
        theta,
        records,
        hot_items,
        share: HOT_SHARE,
        hot_set,
        cache: cache_name(llc),
        cache_size: llc.size,
    })
}
