//! The demo's four designs through the harness, briefly: each runs, records its declared
//! design, and raises the red flags the README's story tells — Lazy and Narrow six and
//! five, Realistic only that its data fits in memory, Realistic without fsync that too and
//! no durability.
use plumb_bench::{Args, Harness};
use storage_engine::designs::designs;
use storage_engine::{KvStore, LockMap, Wal};

#[test]
fn each_design_runs_and_raises_its_red_flags() {
    let dir = tempfile::tempdir().unwrap();
    let args = Args {
        bench: true,
        measure_time: plumb_bench::design::Duration::from_millis(20),
        max_measure_time: plumb_bench::design::Duration::from_millis(40),
        sample_count: 5,
        // In this test binary: it cannot be re-executed as a harness.
        launches: 1,
        warmup_cap: plumb_bench::design::Duration::from_millis(50),
        quiet: true,
        export_json: Some(dir.path().join("r.json")),
        ..Args::default()
    };
    let designs = designs(2);
    let mut h = Harness::with_args(args);
    for d in &designs {
        let path = dir.path().join(format!("{}.wal", d.name));
        h.bench(d.name, move |b| {
            let store = LockMap::new();
            d.workload.load(&store, d.records);
            let wal = d.log.map(|sync| Wal::create(&path, sync).unwrap());
            b.design(d.declared.clone())
                .ops_per_iter(d.workload.ops_per_batch())
                .iter(|| d.workload.run(&store, wal.as_ref(), 1));
            assert!(store.len() > 0);
        });
    }
    let doc = h.run_to_document().unwrap().unwrap();
    let flags = |name: &str| -> Vec<String> {
        let b = doc.benchmark(name).unwrap();
        assert!(b.design.is_some(), "{name} records its design");
        let design_codes = [
            "working-set-in-cache",
            "working-set-in-memory",
            "sequential-keys",
            "single-thread",
            "fixed-size-values",
            "no-durability",
            "clean-state",
        ];
        (b.diagnostics.iter())
            .map(|d| d.code().to_string())
            .filter(|c| design_codes.contains(&c.as_str()))
            .collect()
    };
    let naive = [
        "working-set-in-cache",
        "sequential-keys",
        "fixed-size-values",
        "no-durability",
        "clean-state",
    ];
    let lazy = flags("lazy");
    assert!(
        naive.iter().all(|c| lazy.iter().any(|x| x == c))
            && lazy.iter().any(|x| x == "single-thread"),
        "{lazy:?}"
    );
    let narrow = flags("narrow");
    assert!(
        naive.iter().all(|c| narrow.iter().any(|x| x == c)),
        "{narrow:?}"
    );
    assert!(!narrow.iter().any(|x| x == "single-thread"), "{narrow:?}");
    assert_eq!(flags("realistic"), vec!["working-set-in-memory"]);
    let mut no_fsync = flags("realistic-no-fsync");
    no_fsync.sort();
    assert_eq!(no_fsync, vec!["no-durability", "working-set-in-memory"]);
}
