//! Words of the findings from counters: branch- and memory-bound routines, counts scaled
//! from too little, cache cliffs, nothing measured, and time and work moving apart.
use super::Words;
use plumb_model::finding::{
    Believe, BranchBound, CacheCliff, CountedTooMuch, MemoryBound, NothingMeasured, SizeStep,
    TimeNotWork, WorkNotTime,
};
use plumb_model::format::{self, number, percent};
use plumb_model::quantity::ByteSize;
use plumb_model::sweep::CacheMark;
use plumb_model::{Metric, Source, Verdict};

fn source_word(s: Source) -> &'static str {
    if s == Source::Simulated {
        "simulated"
    } else {
        "counted"
    }
}

pub fn branch_bound(x: &BranchBound) -> Words {
    Words::new(format!(
        "{} of branches mispredicted ({} per operation, {})",
        percent(x.miss_rate),
        number(x.mispredictions_per_op),
        source_word(x.source)
    ))
    .details(format!(
        "{} branches per operation; flagged above {}",
        number(x.branches_per_op),
        percent(x.threshold)
    ))
    .advice("the time depends on the order of the data: measure sorted and shuffled input both, or make the branch branchless (a conditional move, a table)")
}

pub fn memory_bound(x: &MemoryBound) -> Words {
    Words::new(format!(
        "{} of accesses miss the {} cache ({} misses per operation{})",
        percent(x.miss_rate),
        x.cache,
        number(x.misses_per_op),
        x.ipc
            .map_or(", simulated".to_string(), |i| format!(", IPC {i:.2}"))
    ))
    .details(format!("flagged above {}", percent(x.threshold)))
    .advice("the working set does not fit that cache: shrink it, block the loop over it, or make the accesses sequential; a sweep over sizes (-L size …) shows where the cliff is")
}

pub fn counted_too_much(x: &CountedTooMuch) -> Words {
    Words::new(format!(
        "the hardware counters were live {} of the measured time (multiplexed): their values are scaled up from that share",
        percent(x.live_share)
    ))
    .advice("count fewer events at once (the PMU has few registers), or stop whatever else is using them (perf, a profiler, the NMI watchdog)")
}

pub fn nothing_measured(x: &NothingMeasured) -> Words {
    match x {
        NothingMeasured::FewInstructions {
            instructions_per_op,
            source,
            ..
        } => Words::new(format!(
            "{} instructions per operation ({}): too few for any work beyond counting the loop",
            number(*instructions_per_op),
            source_word(*source)
        ))
        .advice("the compiler removed the work, or the operations per run are overstated: pass the inputs through black_box and use the result"),
        NothingMeasured::LikeEmptyBody {
            median_per_op,
            empty_body_median,
        } => dead(format!(
            "{median_per_op} per op is indistinguishable from an empty body ({empty_body_median})"
        )),
        NothingMeasured::BelowOneCycle {
            median_per_op,
            cycle,
        } => dead(format!(
            "{median_per_op} per op is less than one CPU cycle ({})",
            format::time(*cycle)
        )),
    }
}

fn dead(why: String) -> Words {
    Words::new(format!(
        "nothing measured? {why}: the compiler may have deleted the work"
    ))
    .advice(
        "return the result from the closure (it is black_boxed) and pass inputs through black_box",
    )
}

pub fn cache_cliff(x: &CacheCliff) -> Words {
    let misses: Vec<String> = x
        .misses
        .iter()
        .map(|m| {
            format!(
                "{} per operation {} → {}",
                m.counter,
                number(m.from),
                number(m.to)
            )
        })
        .collect();
    Words::new(format!(
        "{} per operation ×{:.2} from {} to {} ({} → {}): {}",
        x.metric.label(),
        x.ratio,
        x.from,
        x.to,
        x.from_mean,
        x.to_mean,
        place(x)
    ))
    .details(
        ratio_interval(x.ratio_ci)
            .into_iter()
            .chain(misses)
            .collect::<Vec<_>>()
            .join("; "),
    )
    .advice(match x.passed().last() {
        Some(m) => format!(
            "to stay under the {} keep the working set below {} (block or tile the loop, smaller elements); otherwise benchmark at the sizes the real workload has",
            m.name, m.size
        ),
        None => "compare with a sweep in finer steps around these sizes, and with huge pages (TLB reach)".to_string(),
    })
}

/// Where a cliff falls: the caches it passes; and when the last level should still hold
/// the larger working set and the step is one into memory, that too. Sizes as the option
/// grammar writes them (`64KiB`), to pass back to `-L`.
fn place(x: &CacheCliff) -> String {
    let named: Vec<String> = x
        .passed()
        .map(|m| {
            let how = if m.size == x.to { "fills" } else { "outgrows" };
            format!("{how} {} ({})", m.name, m.size)
        })
        .collect();
    let place = format!("the working set {}", named.join(" and "));
    match x.caches.last() {
        Some(last) if x.to < last.size && x.ratio >= 4.0 => into_memory(place, x.to, last, x.ratio),
        _ => place,
    }
}

/// A step's ratio interval, as its figures show it.
fn ratio_interval(ci: Option<plumb_model::Interval>) -> Option<String> {
    ci.map(|ci| format!("ratio interval [{:.2}, {:.2}]", ci.lo, ci.hi))
}

/// A step where no cache lies between: the TLB reach that does, or no cause at all.
pub fn size_step(x: &SizeStep) -> Words {
    let caches: Vec<String> = x
        .caches
        .iter()
        .map(|m| format!("{} {}", m.name, m.size))
        .collect();
    let tlbs: Vec<String> = x
        .tlbs_passed()
        .map(|m| format!("the {} ({})", m.name, m.size))
        .collect();
    let cause = if !tlbs.is_empty() {
        format!(
            "{} lies between: address translation, not data, is the likely edge",
            tlbs.join(" and ")
        )
    } else if x.tlb_reaches.is_empty() {
        "this CPU reports no TLB sizes, and what else sets this edge is not known from these runs"
            .to_string()
    } else {
        "nor does a TLB's reach: what sets this edge is not known from these runs".to_string()
    };
    Words::new(format!(
        "{} per operation ×{:.2} from {} to {} ({} → {}), where no cache of this machine lies between ({}); {cause}",
        x.metric.label(),
        x.ratio,
        x.from,
        x.to,
        x.from_mean,
        x.to_mean,
        caches.join(", ")
    ))
    .details(
        ratio_interval(x.ratio_ci).unwrap_or_default(),
    )
    .advice(if tlbs.is_empty() {
        "--counters (or their simulation) would show which misses grow; a finer sweep around these sizes would place the edge"
    } else {
        "huge pages (THP: madvise(MADV_HUGEPAGE) on the buffer) widen the TLB's reach; with them the step should move or vanish"
    })
}

fn into_memory(place: String, to: ByteSize, last: &CacheMark, ratio: f64) -> String {
    format!(
        "{place}; {to} is within the {} ({}) yet costs ×{ratio:.1}: the part of the {} this machine gets is smaller (other cores or guests share it), or the TLB's reach is passed",
        last.name, last.size, last.name
    )
}

fn ratio(r: f64) -> String {
    if r.is_finite() {
        format!("{r:.3}")
    } else {
        "∞".into()
    }
}

/// The work's name and source as a finding says it: "estimated cycles ×1.000
/// (simulated)", "instructions ×0.600".
fn work(metric: &Metric, ratio_of: f64, source: Source) -> String {
    let name = match metric {
        Metric::EstimatedCycles => "estimated cycles",
        other => other.as_str(),
    };
    let simulated = if source == Source::Simulated {
        " (simulated)"
    } else {
        ""
    };
    format!("{name} ×{}{simulated}", ratio(ratio_of))
}

/// Which to go by, and why, as a clause.
fn believe(b: Option<Believe>) -> &'static str {
    match b {
        None => "",
        Some(Believe::TimeOffCpu) => "; go by the time: most of it is spent off the CPU (sleeping, waiting on I/O or other processes), which a simulation does not count",
        Some(Believe::TimeSettled) => "; go by the time: it settled, and what moved lies outside the counted work (the kernel, the real caches' and predictor's timing, alignment, the clock's frequency)",
        Some(Believe::TimeHidesWork) => "; go by the time for what users wait: the work changed and the machine hides it (overlapped with memory, or cheap instructions)",
        Some(Believe::WorkCpuBound) => "; go by the work: the program spends its time on the CPU, where the simulated work is, and this machine's time cannot settle a change this small",
    }
}

pub fn time_not_work(x: &TimeNotWork) -> Words {
    let why = if x.moved.is_empty() {
        "nothing counted moved either: the machine (frequency, neighbours), the code's layout or alignment changed, not the amount of work".to_string()
    } else {
        let moved: Vec<String> = x
            .moved
            .iter()
            .map(|k| format!("{} ×{}", k.counter, ratio(k.ratio)))
            .collect();
        format!(
            "{} moved: the same work waits differently on memory or branches",
            moved.join(", ")
        )
    };
    Words::new(format!(
        "time ×{} but {} (the same work): {why}{}",
        ratio(x.time_ratio),
        work(&x.work, x.work_ratio, x.work_source),
        believe(x.believe)
    ))
    .advice("before crediting (or blaming) the code, re-run both interleaved on one machine; if it holds, look at what moved")
}

pub fn work_not_time(x: &WorkNotTime) -> Words {
    let time = match x.time_verdict {
        Verdict::Equivalent => format!("time equivalent (×{})", ratio(x.time_ratio)),
        _ => format!("time not settled (×{})", ratio(x.time_ratio)),
    };
    let why = match x.believe {
        Some(_) if x.time_verdict != Verdict::Equivalent => believe(x.believe).to_string(),
        _ => format!(": the work changed and something else bounds the time (memory, a dependency chain), or the instructions that changed were cheap{}", believe(x.believe)),
    };
    let advice = match x.believe {
        Some(Believe::WorkCpuBound) => {
            "gate on the simulated cycles where this machine is too noisy for time (--gate cycles)"
        }
        Some(Believe::TimeOffCpu) => {
            "the time decides: run more rounds, or measure on a quieter machine"
        }
        _ => "look at IPC and the misses: fewer instructions at lower IPC is the same time",
    };
    Words::new(format!(
        "{} but {time}{why}",
        work(&x.work, x.work_ratio, x.work_source)
    ))
    .advice(advice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{Amount, Metric, Unit};

    fn cliff(from: u64, to: u64, from_ns: f64, to_ns: f64) -> CacheCliff {
        let mark = |name: &str, size: u64| CacheMark {
            name: name.into(),
            size: ByteSize(size),
        };
        CacheCliff {
            metric: Metric::WallTime,
            from_benchmark: format!("rand {from}"),
            from: ByteSize(from),
            to: ByteSize(to),
            from_mean: Amount::new(from_ns, Unit::Nanoseconds),
            to_mean: Amount::new(to_ns, Unit::Nanoseconds),
            ratio: to_ns / from_ns,
            ratio_ci: None,
            caches: vec![
                mark("L1d", 32 << 10),
                mark("L2", 1 << 20),
                mark("L3", 32 << 20),
            ],
            misses: Vec::new(),
        }
    }

    /// The random-access curve measured here (examples/cache.c, ns per access).
    #[test]
    fn each_cliff_names_the_cache_it_passes() {
        let words = |c: CacheCliff| cache_cliff(&c).message;
        assert_eq!(
            words(cliff(16 << 10, 64 << 10, 1.2, 2.4)),
            "Time per operation ×2.00 from 16KiB to 64KiB (1.200 ns → 2.400 ns): the working set outgrows L1d (32KiB)"
        );
        assert!(words(cliff(256 << 10, 1 << 20, 3.6, 7.0)).ends_with("fills L2 (1MiB)"));
        let into_dram = words(cliff(1 << 20, 8 << 20, 7.0, 107.0));
        assert!(
            into_dram.contains("×15.29 from 1MiB to 8MiB"),
            "{into_dram}"
        );
        assert!(
            into_dram.contains("outgrows L2 (1MiB); 8MiB is within the L3 (32MiB) yet costs ×15.3"),
            "{into_dram}"
        );
    }

    #[test]
    fn a_step_between_caches_names_a_tlb_only_when_one_lies_between() {
        let c = cliff(64 << 10, 256 << 10, 2.4, 3.6);
        let step = |tlbs: Vec<CacheMark>| SizeStep {
            metric: c.metric.clone(),
            from_benchmark: c.from_benchmark.clone(),
            from: c.from,
            to: c.to,
            from_mean: c.from_mean,
            to_mean: c.to_mean,
            ratio: c.ratio,
            ratio_ci: None,
            caches: c.caches.clone(),
            tlb_reaches: tlbs,
            misses: Vec::new(),
        };
        let reach = |name: &str, size: u64| CacheMark {
            name: name.into(),
            size: ByteSize(size),
        };
        let w = size_step(&step(vec![
            reach("L1 dTLB reach", 256 << 10),
            reach("L2 dTLB reach", 8 << 20),
        ]));
        assert_eq!(
            w.message,
            "Time per operation ×1.50 from 64KiB to 256KiB (2.400 ns → 3.600 ns), where no cache of this machine lies between (L1d 32KiB, L2 1MiB, L3 32MiB); the L1 dTLB reach (256KiB) lies between: address translation, not data, is the likely edge"
        );
        let w = size_step(&step(vec![reach("L1 dTLB reach", 288 << 10)]));
        assert!(
            w.message.ends_with(
                "nor does a TLB's reach: what sets this edge is not known from these runs"
            ),
            "{}",
            w.message
        );
        assert!(!w.message.contains("likely"));
        let w = size_step(&step(Vec::new()));
        assert!(
            w.message.contains("this CPU reports no TLB sizes"),
            "{}",
            w.message
        );
    }

    #[test]
    fn counters_are_said_with_their_source() {
        let b = branch_bound(&BranchBound {
            mispredictions_per_op: 0.517,
            branches_per_op: 4.63,
            miss_rate: 0.517 / 4.63,
            threshold: 0.05,
            source: Source::Simulated,
        });
        assert_eq!(
            b.message,
            "11.2% of branches mispredicted (0.5170 per operation, simulated)"
        );
        let m = memory_bound(&MemoryBound {
            cache: "L1d".into(),
            miss_rate: 0.3,
            misses_per_op: 3.0,
            threshold: 0.1,
            ipc: Some(0.5),
        });
        assert_eq!(
            m.message,
            "30.0% of accesses miss the L1d cache (3.000 misses per operation, IPC 0.50)"
        );
        let t = time_not_work(&TimeNotWork {
            time_ratio: 1.5,
            work: Metric::Instructions,
            work_ratio: 1.0,
            work_source: Source::HardwareCounter,
            moved: vec![plumb_model::finding::CounterMoved {
                counter: "llc-load-misses".into(),
                ratio: 30.015,
            }],
            believe: None,
        });
        assert!(t.message.starts_with("time ×1.500 but instructions ×1.000 (the same work): llc-load-misses ×30.015 moved"), "{}", t.message);
        let w = work_not_time(&WorkNotTime {
            time_ratio: 1.04,
            time_verdict: Verdict::Inconclusive,
            work: Metric::EstimatedCycles,
            work_ratio: 1.05,
            work_source: Source::Simulated,
            believe: Some(Believe::WorkCpuBound),
        });
        assert_eq!(w.message, "estimated cycles ×1.050 (simulated) but time not settled (×1.040); go by the work: the program spends its time on the CPU, where the simulated work is, and this machine's time cannot settle a change this small");
        assert!(w.advice.unwrap().contains("--gate cycles"));
    }
}
