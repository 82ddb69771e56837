//! The storage-engine story, measured: for each of the four designs, one lock around a
//! map (the baseline) against the striped map, each benchmark declaring its design so
//! plumb prints the red flags beside the verdict.
//!
//! cargo bench -p storage-engine --bench designs
use plumb_bench::{Bencher, Harness};
use std::path::{Path, PathBuf};
use storage_engine::designs::{designs, StoreDesign};
use storage_engine::{KvStore, LockMap, StripedMap, Wal};

fn main() {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let designs = designs(cores);
    // The logs live on the target directory's filesystem (a real disk here; on tmpfs an
    // fsync would cost nothing and Realistic would lie too).
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("storage-engine");
    std::fs::create_dir_all(&dir).expect("the target directory is writable");
    let mut h = Harness::from_env();
    for d in &designs {
        let dir = dir.as_path();
        h.group(d.name)
            .baseline("lock", move |b| measure(b, d, &LockMap::new(), dir, "lock"))
            .bench("striped", move |b| {
                measure(b, d, &StripedMap::new(), dir, "striped")
            });
    }
    h.run();
}

/// Loads the design's records (untimed), then times its batches on `store`.
fn measure(b: &mut Bencher, d: &StoreDesign, store: &dyn KvStore, dir: &Path, label: &str) {
    d.workload.load(store, d.records);
    let wal = d.log.map(|sync| {
        let path = dir.join(format!("{}-{label}.wal", d.name));
        Wal::create(&path, sync).expect("the log can be created")
    });
    let mut seed = 0u64;
    b.design(d.declared.clone())
        .ops_per_iter(d.workload.ops_per_batch())
        .iter(|| {
            seed += 1;
            d.workload.run(store, wal.as_ref(), seed)
        });
}
