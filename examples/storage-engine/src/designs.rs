//! The four designs of "Why Benchmarks Lie", each a workload and its declared traits
//! (what plumb checks for red flags), with what production looks like declared beside:
//! a store of a billion records of 100 B – 4 KiB values, Zipfian keys, 64 clients, every
//! write group-committed, aged by months of writes.
//!
//! - **Lazy**: one thread, sequential keys, fixed 100-byte values, no log, a fresh store.
//! - **Narrow**: as Lazy with one thread per core, each on its own sequential keys.
//! - **Realistic**: eight clients, YCSB-A's mix (half reads) over Zipfian keys, values of
//!   100 B – 4 KiB, 200,000 records loaded first (past the last-level cache), every write
//!   logged and group-committed with fdatasync.
//! - **Realistic without fsync**: the same with the log written but never synced.
use crate::workload::{KeyOrder, Workload};
use plumb_bench::data::{ScrambledZipfian, SizeDist};
use plumb_bench::design::*;

/// One design: its name, the workload a batch runs, the records loaded before it, whether
/// writes go to a log and whether the log syncs.
pub struct StoreDesign {
    pub name: &'static str,
    pub workload: Workload,
    pub records: u64,
    pub log: Option<bool>,
    pub declared: Design,
}

/// Records of the realistic designs: about 400 MiB of values, past any last-level cache.
pub const REALISTIC_RECORDS: u64 = 200_000;

fn production() -> Option<Box<Design>> {
    Some(Box::new(Design {
        keys: Some(KeyDistribution::Zipfian {
            theta: 0.99,
            scrambled: true,
        }),
        records: Some(1_000_000_000),
        value_size: Some(SizeDistribution::Uniform {
            min: ByteSize(100),
            max: ByteSize(4096),
        }),
        threads: Some(64),
        durability: Some(Durability::GroupCommit),
        state: Some(StateBetweenRuns::Aged),
        ..Design::default()
    }))
}

/// The four designs; `cores` sets Narrow's threads (one per core, as the article's).
pub fn designs(cores: usize) -> Vec<StoreDesign> {
    let sequential = |threads: usize| Workload {
        threads,
        ops_per_thread: 20_000,
        keys: KeyOrder::SequentialPerThread,
        values: SizeDist::Fixed(100),
        read_share: 0.0,
    };
    let naive = |threads: usize| Design {
        keys: Some(KeyDistribution::Sequential),
        mix: Some(Mix {
            update: 1.0,
            ..Mix::default()
        }),
        records: Some((threads * 20_000) as u64),
        key_size: Some(SizeDistribution::Fixed { size: ByteSize(8) }),
        value_size: Some(SizeDistribution::Fixed {
            size: ByteSize(100),
        }),
        threads: Some(threads as u32),
        durability: Some(Durability::None),
        state: Some(StateBetweenRuns::Fresh),
        production: production(),
        ..Design::default()
    };
    let zipfian = ScrambledZipfian::new(REALISTIC_RECORDS).expect("records > 0");
    let realistic = |ops_per_thread| Workload {
        threads: 8,
        ops_per_thread,
        keys: KeyOrder::Zipfian(zipfian),
        values: SizeDist::uniform(100, 4096).expect("100 ≤ 4096"),
        read_share: 0.5,
    };
    let realistic_design = |durability| Design {
        keys: Some(KeyDistribution::Zipfian {
            theta: 0.99,
            scrambled: true,
        }),
        mix: Some(Mix {
            read: 0.5,
            update: 0.5,
            ..Mix::default()
        }),
        records: Some(REALISTIC_RECORDS),
        key_size: Some(SizeDistribution::Fixed { size: ByteSize(8) }),
        value_size: Some(SizeDistribution::Uniform {
            min: ByteSize(100),
            max: ByteSize(4096),
        }),
        threads: Some(8),
        durability: Some(durability),
        state: Some(StateBetweenRuns::Reused),
        production: production(),
        ..Design::default()
    };
    vec![
        StoreDesign {
            name: "lazy",
            workload: sequential(1),
            records: 0,
            log: None,
            declared: naive(1),
        },
        StoreDesign {
            name: "narrow",
            workload: sequential(cores),
            records: 0,
            log: None,
            declared: naive(cores),
        },
        StoreDesign {
            name: "realistic",
            workload: realistic(64),
            records: REALISTIC_RECORDS,
            log: Some(true),
            declared: realistic_design(Durability::GroupCommit),
        },
        StoreDesign {
            name: "realistic-no-fsync",
            workload: realistic(500),
            records: REALISTIC_RECORDS,
            log: Some(false),
            declared: realistic_design(Durability::None),
        },
    ]
}
