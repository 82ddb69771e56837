//! Words of the design findings: each red flag says what the declared design does, why
//! that makes the number lie, the figures (this machine's caches and memory, production's
//! traits where declared) and what a realistic design would declare instead.
use super::Words;
use plumb_model::finding::{
    ClosedLoopPercentile, ConcurrencyBelowLittle, DesignMismatch, FixedSizeValues,
    GeneratorOnTarget, HotSetInCache, NoDurability, QuestionMatters, Sensitive, Sensitivity,
    SequentialKeys, SingleThread, TooFewForPercentile, TooShortToSteady, WorkingSetInCache,
    WorkingSetInMemory,
};
use plumb_model::format::{self, bytes};

fn estimated(yes: bool) -> &'static str {
    if yes {
        " (records × record size),"
    } else {
        ","
    }
}

pub fn working_set_in_cache(x: &WorkingSetInCache) -> Words {
    let production = x
        .production
        .map(|p| format!("; production's is {}", bytes(p)))
        .unwrap_or_default();
    Words::new(format!(
        "the working set, {}{} fits in this machine's {} ({}){production}: every access is a cache hit, so this measures cache, not the data structure under memory traffic",
        bytes(x.working_set),
        estimated(x.estimated),
        x.cache,
        bytes(x.cache_size)
    ))
    .advice("declare as many records as production holds, or at least several times the last-level cache")
}

pub fn working_set_in_memory(x: &WorkingSetInMemory) -> Words {
    Words::new(format!(
        "the working set, {}{} fits in memory ({}) while production's ({}) does not: no read ever waits for the disk",
        bytes(x.working_set),
        estimated(x.estimated),
        bytes(x.memory),
        bytes(x.production)
    ))
    .advice("grow the data past memory, or limit the page cache (a cgroup memory limit) to production's share")
}

pub fn hot_set_in_cache(x: &HotSetInCache) -> Words {
    Words::new(format!(
        "the {} hottest of {} keys take {} of a {} (θ = {}) workload's accesses and fit in the {} ({} of {}): most operations hit cache though the data does not",
        format::count(x.hot_items as f64),
        format::count(x.records as f64),
        format::percent(x.share),
        x.distribution,
        x.theta,
        x.cache,
        bytes(x.hot_set),
        bytes(x.cache_size)
    ))
    .advice("that may be production's truth: declare production's distribution and size to say so; otherwise lower θ or add records")
}

pub fn sequential_keys(x: &SequentialKeys) -> Words {
    let production = x
        .production
        .as_ref()
        .map(|p| format!(" (production's are {p})"))
        .unwrap_or_default();
    Words::new(format!(
        "keys are sequential{production}: the prefetcher, the branch predictor and the tree's right edge all see a pattern random keys do not give them"
    ))
    .advice("draw keys from production's distribution: uniform, or Zipfian (plumb_bench::data::ScrambledZipfian, θ = 0.99)")
}

pub fn single_thread(x: &SingleThread) -> Words {
    let production = x
        .production
        .map(|p| format!(" while production runs {p}"))
        .unwrap_or_default();
    Words::new(format!(
        "one thread issues every operation{production}: locks are never contended and cache lines never move between cores"
    ))
    .advice("run with production's concurrency (at least the cores this machine has)")
}

pub fn fixed_size_values(x: &FixedSizeValues) -> Words {
    Words::new(format!(
        "every value is {}: the allocator, copies and page packing see one size, as production's never do",
        bytes(x.size)
    ))
    .advice("draw sizes from production's distribution (value_size = { uniform = [min, max] } or zipfian)")
}

pub fn no_durability(x: &NoDurability) -> Words {
    let production = x
        .production
        .as_ref()
        .map(|p| format!(" (production's: {p})"))
        .unwrap_or_default();
    Words::new(format!(
        "writes are not made durable{production}: no fsync is measured, and an fsync costs more than most in-memory work it would sit beside"
    ))
    .advice("write the log and fsync as production does (per operation or by group commit)")
}

pub fn clean_state() -> Words {
    Words::new("every run starts from a fresh store: no fragmentation, compaction debt or aged layout, which production always has")
        .advice("age the store first (write several times its size), or reuse it across runs (state = \"aged\")")
}

pub fn too_short_to_steady(x: &TooShortToSteady) -> Words {
    Words::new(format!(
        "a write-heavy run writes {} over {} of data, less than {}× it: it ends before compaction, eviction or log recycling reach their steady state",
        bytes(x.written),
        bytes(x.data),
        format::number(x.times)
    ))
    .advice("run long enough to write several times the data (raise the duration or the rate)")
}

pub fn closed_loop_percentile(x: &ClosedLoopPercentile) -> Words {
    Words::new(format!(
        "a closed loop is asked for p{}: each thread waits for its last operation before the next, so a stall delays the very requests that would have measured it (coordinated omission)",
        x.percentile
    ))
    .advice("drive the system open-loop at a rate (plumb load --rate), latency measured from each request's intended send time")
}

pub fn too_few_for_percentile(x: &TooFewForPercentile) -> Words {
    Words::new(format!(
        "p{} of {:.0} samples rests on {} beyond it, fewer than {:.0}: it is decided by a handful of values",
        x.percentile,
        x.samples,
        format::number(x.beyond),
        x.needed
    ))
    .advice(format!(
        "take at least {:.0} samples (a longer run or a higher rate), or ask a lower percentile",
        (x.needed * 100.0 / (100.0 - x.percentile)).ceil()
    ))
}

pub fn concurrency_below_little(x: &ConcurrencyBelowLittle) -> Words {
    Words::new(format!(
        "{} at {} each needs {} operations in flight (Little's law, L = λW) but only {} can be: the rate cannot be offered",
        format::rate(x.rate),
        format::time(x.latency),
        format::count(x.needed),
        x.threads
    ))
    .advice(format!(
        "allow at least {} concurrent operations (threads or connections), more for the tail",
        format::count(x.needed.ceil())
    ))
}

pub fn generator_on_target(x: &GeneratorOnTarget) -> Words {
    let target = x
        .target
        .as_ref()
        .map(|t| format!(" ({t})"))
        .unwrap_or_default();
    Words::new(format!(
        "the load generator runs on the machine it measures{target}: the two share cores, caches and the scheduler"
    ))
    .advice("generate load from another machine (or pin the two to separate cores and say so)")
}

pub fn one_launch() -> Words {
    Words::new("one process is measured: its code layout, heap placement and ASLR draw are one sample of many, fixed for the whole run")
        .advice("measure several launches (--launches 5) so the layout varies")
}

pub fn design_mismatch(x: &DesignMismatch) -> Words {
    Words::new(format!(
        "the design declares {} = {} but the run had {}",
        x.field, x.declared, x.measured
    ))
    .advice("correct the workload file or the run so the result records what was measured")
}

pub fn question_matters(x: &QuestionMatters) -> Words {
    let answers: Vec<String> = (x.answers.iter())
        .map(|a| {
            format!(
                "{} {} (×{})",
                a.statistic,
                a.verdict,
                format::factor(a.ratio)
            )
        })
        .collect();
    if let Some(far) = x.mean_swayed {
        return Words::new(format!(
            "the mean is inconclusive where the median is not: {} far-out samples of {} (the farthest {}× its side's median) widen the mean's interval, so this verdict answers the {} — {}",
            far.far_out,
            far.samples,
            format::factor(far.farthest_times_median),
            x.asked,
            answers.join(", ")
        ))
        .advice("--question mean asks the mean alone; samples that far out are stalls worth finding (plumb profile), or noise from the machine (plumb env)");
    }
    Words::new(format!(
        "the answer depends on the question: {} — this verdict answers the {}",
        answers.join(", "),
        x.asked
    ))
    .advice("say which question matters (--question best|typical|mean|worst=p99) and report that one; a faster median with a slower tail is a trade, not a win")
}

pub fn sensitivity(x: &Sensitivity) -> Words {
    let parts: Vec<String> = (x.to.iter())
        .map(|s| match s {
            Sensitive::BranchPredictor { miss_rate, .. } => format!(
                "the branch predictor ({} of branches mispredicted)",
                format::percent(*miss_rate)
            ),
            Sensitive::Cache {
                cache,
                miss_rate,
                cliff,
            } => {
                let mut why = Vec::new();
                if let Some(m) = miss_rate {
                    why.push(format!("{} of accesses miss it", format::percent(*m)));
                }
                if let Some(c) = cliff {
                    why.push(format!("time ×{} past it", format::factor(*c)));
                }
                format!("the {cache} ({})", why.join("; "))
            }
            Sensitive::SchedulerJitter { tail_ratio, modes } => {
                let modes = if *modes > 1 {
                    format!("; {modes} modes")
                } else {
                    String::new()
                };
                format!(
                    "scheduler jitter (p99 is {}× the median{modes})",
                    format::factor(*tail_ratio)
                )
            }
        })
        .collect();
    Words::new(format!("sensitive to {}", parts.join(", ")))
        .advice("on another machine, input or load these parts differ: expect this number to move with them")
}
