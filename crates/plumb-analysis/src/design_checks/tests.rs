//! Each red flag on a design that must raise it and on one that must not; YCSB's six core
//! workloads at their stock 1,000 records (all flag the working set in cache) and A at
//! 10⁸ records (does not); and five designs a careful engineer would write, which raise
//! nothing. The machine is this one's shape: L3 32 MiB, 24 GiB of memory.
use super::design_checks;
use plumb_model::quantity::{ByteSize, Duration, Rate};
use plumb_model::*;

fn machine() -> Environment {
    Environment {
        caches: vec![
            CacheLevel::of_size(1, "Data", ByteSize(32 << 10)),
            CacheLevel::of_size(1, "Instruction", ByteSize(32 << 10)),
            CacheLevel::of_size(2, "Unified", ByteSize(1 << 20)),
            CacheLevel::of_size(3, "Unified", ByteSize(32 << 20)),
        ],
        memory: Some(ByteSize(24 << 30)),
        ..Environment::default()
    }
}

fn codes(d: &Design) -> Vec<String> {
    design_checks(d, &machine())
        .iter()
        .map(|x| x.code().to_string())
        .collect()
}

fn raises(d: &Design, code: &str) -> bool {
    codes(d).iter().any(|c| c == code)
}

fn fixed(b: u64) -> Option<SizeDistribution> {
    Some(SizeDistribution::Fixed { size: ByteSize(b) })
}

fn uniform(min: u64, max: u64) -> Option<SizeDistribution> {
    Some(SizeDistribution::Uniform {
        min: ByteSize(min),
        max: ByteSize(max),
    })
}

fn zipfian() -> Option<KeyDistribution> {
    Some(KeyDistribution::Zipfian {
        theta: 0.99,
        scrambled: true,
    })
}

fn open(rate: f64) -> Option<Arrival> {
    Some(Arrival::Open {
        rate: Rate::new(rate).unwrap(),
    })
}

fn production(p: Design) -> Option<Box<Design>> {
    Some(Box::new(p))
}

#[test]
fn every_stock_ycsb_workload_fits_in_this_machines_cache() {
    for letter in "abcdef".chars() {
        let d = ycsb_core(letter).unwrap();
        let found = design_checks(&d, &machine());
        let in_cache = found
            .iter()
            .find(|x| x.code().as_str() == "working-set-in-cache")
            .unwrap_or_else(|| panic!("ycsb-{letter}: {found:?}"));
        // 1,000 records × (23 + 1000) B, estimated, against the 32 MiB L3.
        match &in_cache.finding {
            Finding::WorkingSetInCache(x) => {
                assert_eq!(x.working_set, ByteSize(1_023_000));
                assert!(x.estimated);
                assert_eq!(x.cache, "L3 cache");
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn ycsb_a_at_a_hundred_million_records_does_not() {
    let d = Design {
        records: Some(100_000_000),
        ..ycsb_core('a').unwrap()
    };
    let found = codes(&d);
    assert!(
        !found
            .iter()
            .any(|c| c.contains("working-set") || c.contains("hot-set")),
        "{found:?}"
    );
    // What it does raise: YCSB's values are all 1,000 bytes.
    assert_eq!(found, vec!["fixed-size-values"]);
}

#[test]
fn the_working_set_in_cache_is_no_flag_where_production_fits_too() {
    let small = Design {
        working_set: Some(ByteSize(1 << 20)),
        ..Design::default()
    };
    assert!(raises(&small, "working-set-in-cache"));
    let as_production = Design {
        production: production(Design {
            working_set: Some(ByteSize(4 << 20)),
            ..Design::default()
        }),
        ..small.clone()
    };
    assert!(!raises(&as_production, "working-set-in-cache"));
    let big = Design {
        working_set: Some(ByteSize(1 << 30)),
        ..Design::default()
    };
    assert!(!raises(&big, "working-set-in-cache"));
}

#[test]
fn a_working_set_in_memory_is_a_flag_only_against_a_larger_production() {
    let d = Design {
        working_set: Some(ByteSize(4 << 30)),
        ..Design::default()
    };
    assert!(!raises(&d, "working-set-in-memory"));
    let bigger = Design {
        production: production(Design {
            working_set: Some(ByteSize(1 << 40)),
            ..Design::default()
        }),
        ..d.clone()
    };
    assert!(raises(&bigger, "working-set-in-memory"));
    let also_small = Design {
        production: production(Design {
            working_set: Some(ByteSize(8 << 30)),
            ..Design::default()
        }),
        ..d
    };
    assert!(!raises(&also_small, "working-set-in-memory"));
}

#[test]
fn a_zipfian_hot_set_in_cache_with_its_size() {
    // 10⁵ records of 1 KiB: 98 MiB, past the L3; at θ = 0.99 the hottest k with
    // ζ(k)/ζ(10⁵) ≥ 0.9 number about 30,000 — about 30 MiB, inside it.
    let d = Design {
        keys: zipfian(),
        records: Some(100_000),
        value_size: fixed(1024),
        ..Design::default()
    };
    let found = design_checks(&d, &machine());
    let hot = found.iter().find_map(|x| match &x.finding {
        Finding::HotSetInCache(h) => Some(h.clone()),
        _ => None,
    });
    let hot = hot.unwrap_or_else(|| panic!("{found:?}"));
    let h = |k| plumb_stats::harmonic(k, 0.99) / plumb_stats::harmonic(100_000, 0.99);
    assert!(h(hot.hot_items) >= 0.9 && h(hot.hot_items - 1) < 0.9);
    assert_eq!(hot.hot_set, ByteSize(hot.hot_items * 1024));
    assert!(hot.hot_set <= ByteSize(32 << 20));
    // Ten times the records: the hot set no longer fits.
    let bigger = Design {
        records: Some(1_000_000),
        ..d.clone()
    };
    assert!(!raises(&bigger, "hot-set-in-cache"));
    // Uniform keys have no hot set.
    let flat = Design {
        keys: Some(KeyDistribution::Uniform),
        ..d
    };
    assert!(!raises(&flat, "hot-set-in-cache"));
}

#[test]
fn the_traits_production_rarely_shares() {
    let lazy = Design {
        keys: Some(KeyDistribution::Sequential),
        threads: Some(1),
        value_size: fixed(100),
        durability: Some(Durability::None),
        state: Some(StateBetweenRuns::Fresh),
        ..Design::default()
    };
    for code in [
        "sequential-keys",
        "single-thread",
        "fixed-size-values",
        "no-durability",
        "clean-state",
    ] {
        assert!(raises(&lazy, code), "{code}: {:?}", codes(&lazy));
    }
    // Declared as production's own: none is a lie.
    let mirrored = Design {
        production: production(Design {
            production: None,
            ..lazy.clone()
        }),
        ..lazy.clone()
    };
    assert!(codes(&mirrored).is_empty(), "{:?}", codes(&mirrored));
    // Changed to production's: none raised either.
    let realistic = Design {
        keys: zipfian(),
        threads: Some(8),
        value_size: uniform(100, 4096),
        durability: Some(Durability::GroupCommit),
        state: Some(StateBetweenRuns::Aged),
        ..Design::default()
    };
    assert!(codes(&realistic).is_empty(), "{:?}", codes(&realistic));
    // A read-only workload has nothing to make durable.
    let read_only = Design {
        mix: Some(Mix {
            read: 1.0,
            ..Mix::default()
        }),
        durability: Some(Durability::None),
        ..Design::default()
    };
    assert!(!raises(&read_only, "no-durability"));
}

#[test]
fn a_write_heavy_run_that_ends_before_steady_state() {
    // 1 GiB of 1 KiB records, half the operations writes, 10 k/s for 60 s: 300 MB
    // written, under 3 × 1 GiB.
    let d = Design {
        records: Some(1 << 20),
        value_size: fixed(1024),
        mix: ycsb_core('a').unwrap().mix,
        arrival: open(10_000.0),
        duration: Some(Duration::from_secs(60)),
        ..Design::default()
    };
    let found = design_checks(&d, &machine());
    let short = found.iter().find_map(|x| match &x.finding {
        Finding::TooShortToSteady(s) => Some(s.clone()),
        _ => None,
    });
    let short = short.unwrap_or_else(|| panic!("{found:?}"));
    assert_eq!(short.written, ByteSize(10_000 * 60 / 2 * 1024));
    assert_eq!(short.data, ByteSize(1 << 30));
    // An hour writes 18 GB: steady.
    let long = Design {
        duration: Some(Duration::from_secs(3600)),
        ..d
    };
    assert!(!raises(&long, "too-short-to-steady"));
}

#[test]
fn load_design_flags() {
    let d = Design {
        arrival: Some(Arrival::Closed),
        question: Some(Question::Worst(99.9)),
        warmup: Some(Duration::ZERO),
        generator: Some(GeneratorPlace::SameMachine),
        launches: Some(1),
        ..Design::default()
    };
    for code in [
        "closed-loop-percentile",
        "no-warmup",
        "generator-on-target",
        "one-launch",
    ] {
        assert!(raises(&d, code), "{code}: {:?}", codes(&d));
    }
    // p99.9 of 100/s for 60 s: 6,000 samples, 6 beyond it (fewer than 10).
    let few = Design {
        arrival: open(100.0),
        duration: Some(Duration::from_secs(60)),
        question: Some(Question::Worst(99.9)),
        ..Design::default()
    };
    assert!(raises(&few, "too-few-for-percentile"));
    let enough = Design {
        duration: Some(Duration::from_secs(120)),
        ..few
    };
    assert!(!raises(&enough, "too-few-for-percentile"));
    // 20 k/s at 5 ms each: 100 in flight, 16 threads cannot.
    let little = Design {
        arrival: open(20_000.0),
        latency: Some(Duration::from_millis(5)),
        threads: Some(16),
        ..Design::default()
    };
    assert!(raises(&little, "concurrency-below-little"));
    let enough = Design {
        threads: Some(128),
        ..little
    };
    assert!(!raises(&enough, "concurrency-below-little"));
}

/// Five designs a careful engineer would write: none raises a flag.
#[test]
fn good_designs_raise_nothing() {
    let storage = Design {
        keys: zipfian(),
        mix: ycsb_core('a').unwrap().mix,
        records: Some(100_000_000),
        key_size: fixed(24),
        value_size: uniform(100, 4096),
        threads: Some(16),
        durability: Some(Durability::GroupCommit),
        state: Some(StateBetweenRuns::Aged),
        warmup: Some(Duration::from_secs(30)),
        launches: Some(5),
        ..Design::default()
    };
    let load = Design {
        arrival: open(2_000.0),
        latency: Some(Duration::from_millis(5)),
        threads: Some(64),
        duration: Some(Duration::from_secs(600)),
        question: Some(Question::Worst(99.0)),
        generator: Some(GeneratorPlace::OtherMachine),
        warmup: Some(Duration::from_secs(30)),
        ..Design::default()
    };
    let parser = Design {
        keys: Some(KeyDistribution::Sequential),
        threads: Some(1),
        working_set: Some(ByteSize(256 << 20)),
        launches: Some(10),
        production: production(Design {
            keys: Some(KeyDistribution::Sequential),
            threads: Some(1),
            ..Design::default()
        }),
        ..Design::default()
    };
    let lookup_table = Design {
        working_set: Some(ByteSize(2 << 20)),
        keys: Some(KeyDistribution::Uniform),
        threads: Some(2),
        production: production(Design {
            working_set: Some(ByteSize(2 << 20)),
            ..Design::default()
        }),
        ..Design::default()
    };
    let cache_server = Design {
        mix: ycsb_core('c').unwrap().mix,
        keys: Some(KeyDistribution::Hotspot {
            data: 0.2,
            operations: 0.8,
        }),
        records: Some(50_000_000),
        value_size: uniform(64, 1024),
        durability: Some(Durability::None),
        threads: Some(32),
        ..Design::default()
    };
    for (name, d) in [
        ("storage", storage),
        ("load", load),
        ("parser", parser),
        ("lookup table", lookup_table),
        ("cache server", cache_server),
    ] {
        assert!(codes(&d).is_empty(), "{name}: {:?}", codes(&d));
    }
}

mod against_the_run {
    use super::*;
    use crate::design_checks::{against_run, RunFacts};

    fn found(d: &Design, facts: &RunFacts) -> Vec<String> {
        against_run(d, facts)
            .iter()
            .map(|x| match &x.finding {
                Finding::DesignMismatch(m) => {
                    format!("{}: {} / {}", m.field, m.declared, m.measured)
                }
                _ => x.code().to_string(),
            })
            .collect()
    }

    #[test]
    fn a_declared_trait_the_run_contradicts() {
        let d = Design {
            warmup: Some(Duration::from_secs(10)),
            launches: Some(5),
            arrival: open(2_000.0),
            duration: Some(Duration::from_secs(60)),
            ..Design::default()
        };
        let run = RunFacts {
            warmed_up: Some(false),
            launches: Some(1),
            open_loop: Some(true),
            rate: Some(1_000.0),
            duration: Some(Duration::from_secs(30)),
            ..RunFacts::default()
        };
        assert_eq!(
            found(&d, &run),
            vec![
                "warmup: 10.00 s / none",
                "launches: 5 / 1",
                "rate: 2000/s / 1000/s",
                "duration: 60.00 s / 30.00 s",
            ]
        );
        let agreeing = RunFacts {
            warmed_up: Some(true),
            launches: Some(5),
            open_loop: Some(true),
            rate: Some(2_000.0),
            duration: Some(Duration::from_secs(60)),
            ..RunFacts::default()
        };
        assert!(found(&d, &agreeing).is_empty());
        // What the run does not say is not contradicted.
        assert!(found(&d, &RunFacts::default()).is_empty());
        let closed = RunFacts {
            open_loop: Some(false),
            ..RunFacts::default()
        };
        assert_eq!(
            found(&d, &closed),
            vec!["arrival: an open loop / a closed loop"]
        );
    }

    #[test]
    fn a_percentile_the_samples_cannot_answer() {
        // p99.9 from 50 samples: 0.05 beyond it.
        let d = Design {
            question: Some(Question::Worst(99.9)),
            ..Design::default()
        };
        let run = RunFacts {
            samples: Some(50.0),
            ..RunFacts::default()
        };
        assert_eq!(found(&d, &run), vec!["too-few-for-percentile"]);
        let many = RunFacts {
            samples: Some(10_000.0),
            ..RunFacts::default()
        };
        assert!(found(&d, &many).is_empty());
    }

    #[test]
    fn load_sent_to_loopback_is_a_generator_on_the_target() {
        let run = RunFacts {
            loopback_target: Some("http://127.0.0.1:8080/".into()),
            ..RunFacts::default()
        };
        assert_eq!(found(&Design::default(), &run), vec!["generator-on-target"]);
        let said_elsewhere = Design {
            generator: Some(GeneratorPlace::OtherMachine),
            ..Design::default()
        };
        assert_eq!(
            found(&said_elsewhere, &run),
            vec!["generator: another machine / this machine's loopback (http://127.0.0.1:8080/)"]
        );
    }
}
